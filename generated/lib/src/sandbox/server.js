import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a}from"../chunks/chunk-A2735AA3.js";import"../chunks/chunk-56EF1210.js";import"../chunks/chunk-33AFB99F.js";import"../chunks/chunk-0D31DB88.js";import"../chunks/chunk-23FF86B4.js";export{a as startSandbox};
