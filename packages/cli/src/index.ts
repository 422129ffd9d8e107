export { createProgram } from './program.js';
