// Preload for `gas serve` in tests: on the HTTP server's first request (so the process has its last-resort handlers
// and the test has seen it start, however slow the machine), injects the fault FAULT names (`reject`: a promise
// rejected that nothing handles; `throw`: an exception thrown from a timer; `throw-string`: a string thrown the same
// way) on the next turn.
'use strict';
const net = require('node:net');
const listen = net.Server.prototype.listen;
let armed = false;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const address = this.address();
    // The HTTP port (a TCP address), not a unix socket the embedded store may listen on.
    if (armed || typeof address !== 'object' || address === null) return;
    armed = true;
    this.once('request', () =>
      setTimeout(() => {
        if (process.listenerCount('unhandledRejection') === 0) throw new Error('inject-fault: the process has no last-resort handlers');
        if (process.env.FAULT === 'reject') void Promise.reject(new Error('injected: a rejection nobody handles'));
        if (process.env.FAULT === 'throw') throw new Error('injected: an exception nobody catches');
        // Anything can be thrown, not only an Error.
        if (process.env.FAULT === 'throw-string') throw 'injected: a string nobody catches';
      }, 0),
    );
  });
  return listen.apply(this, args);
};
