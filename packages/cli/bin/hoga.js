#!/usr/bin/env node
// Runs the TypeScript entry point directly through tsx: hoga has no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
