import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
import{a}from"../chunks/chunk-A4D3A6A8.js";import"../chunks/chunk-99835622.js";import"../chunks/chunk-815127DE.js";import"../chunks/chunk-307A0537.js";import"../chunks/chunk-7CF5813F.js";import"../chunks/chunk-23FF86B4.js";export{a as serveSandbox};
