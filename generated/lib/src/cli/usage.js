import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a,b,c,d}from"../chunks/chunk-D8F3B918.js";import"../chunks/chunk-23FF86B4.js";export{c as EXIT,a as PROGRAM,b as UsageError,d as parseOptions};
