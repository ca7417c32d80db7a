// Preload for `gas serve` in tests: once the process has its last-resort handlers, injects the fault FAULT names
// (`reject`: a promise rejected that nothing handles; `throw`: an exception thrown from a timer; `throw-string`: a
// string thrown the same way), a second later.
'use strict';
const poll = setInterval(() => {
  if (process.listenerCount('unhandledRejection') === 0) return;
  clearInterval(poll);
  setTimeout(() => {
    if (process.env.FAULT === 'reject') void Promise.reject(new Error('injected: a rejection nobody handles'));
    if (process.env.FAULT === 'throw') throw new Error('injected: an exception nobody catches');
    // Anything can be thrown, not only an Error.
    if (process.env.FAULT === 'throw-string') throw 'injected: a string nobody catches';
  }, 1000);
}, 50);
