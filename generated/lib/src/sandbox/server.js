import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a}from"../chunks/chunk-F3214CB5.js";import"../chunks/chunk-56EF1210.js";import"../chunks/chunk-33AFB99F.js";import"../chunks/chunk-307A0537.js";import"../chunks/chunk-23FF86B4.js";export{a as startSandbox};
