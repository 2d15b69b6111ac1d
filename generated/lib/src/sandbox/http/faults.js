import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{i as a,j as b,k as c}from"../../chunks/chunk-41D728BD.js";import"../../chunks/chunk-307A0537.js";import"../../chunks/chunk-7CF5813F.js";import"../../chunks/chunk-23FF86B4.js";export{a as FAULTS,b as parseFaults,c as withFaults};
