import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a,b,c,d}from"../chunks/chunk-7CF5813F.js";import"../chunks/chunk-23FF86B4.js";export{a as escapePointerToken,d as resolveRef,b as unescapePointerToken,c as valueAtPointer};
