#!/usr/bin/env node
// The `docflow` command. Its sources are TypeScript, run through tsx (registered here), so no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
