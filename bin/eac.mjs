#!/usr/bin/env node
// Package bin: lets `npx eac` run the TypeScript CLI through tsx without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./eac.ts');
