#!/usr/bin/env node
// The package bin: the CLI is TypeScript run through tsx, as every other entry of the repository.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
