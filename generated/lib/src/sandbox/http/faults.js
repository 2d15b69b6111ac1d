import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{c as a,d as b,e as c}from"../../chunks/chunk-56EF1210.js";import"../../chunks/chunk-307A0537.js";import"../../chunks/chunk-23FF86B4.js";export{a as FAULTS,c as Faults,b as parseFaults};
