import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a}from"../chunks/chunk-7C2457C6.js";import"../chunks/chunk-41D728BD.js";import"../chunks/chunk-67BE982F.js";import"../chunks/chunk-307A0537.js";import"../chunks/chunk-7CF5813F.js";import"../chunks/chunk-23FF86B4.js";export{a as serveSandbox};
