// Mocha's spec output on the console, plus a {passes, failures, pending} JSON file at the path
// in GAI_MOCHA_SUMMARY so scripts/test.mjs can add the counts to its own summary line.
'use strict';

const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class MochaSummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const target = process.env.GAI_MOCHA_SUMMARY;
      if (!target) return;
      const { passes, failures, pending } = this.stats;
      writeFileSync(target, JSON.stringify({ passes, failures, pending }));
    });
  }
}

// Mocha loads a reporter by requiring the file and calling the module itself as a constructor,
// so the class has to be module.exports here.
module.exports = MochaSummaryReporter;
