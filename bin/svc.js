#!/usr/bin/env node
// The `svc` command. The CLI is TypeScript run by Node 24's built-in type stripping.
import '../src-main/cli/main.ts';
