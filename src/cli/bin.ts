#!/usr/bin/env node
// The `gateway-contract` command.
import { main } from './main.js';

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then((status) => {
  process.exitCode = status;
});
