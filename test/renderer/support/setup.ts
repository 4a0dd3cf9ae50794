// jsdom brings its own Uint8Array; Node's Buffer (which the engine's crypto uses) descends
// from Node's. Component tests run the real engine in the same context, so they share Node's.
globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
