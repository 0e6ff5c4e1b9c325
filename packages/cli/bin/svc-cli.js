#!/usr/bin/env node
// The entry npm links at install time; the bundled CLI is built into dist/.
import '../dist/bin.js';
