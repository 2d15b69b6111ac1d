import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a,b}from"../chunks/chunk-61A216BD.js";import"../chunks/chunk-23FF86B4.js";export{b as EXIT,a as UsageError};
