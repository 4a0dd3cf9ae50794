// `keytar` as a broken install leaves it (FAKE_ELECTRON_KEYTAR=broken, register.ts): loading it
// fails the way a native module that cannot be opened fails (electron/electron#40211, #45896
// are such failures from inside app.asar).
const error = new Error(
  "Cannot find module '/opt/Vet Scribe/resources/app.asar/node_modules/keytar/build/Release/keytar.node'",
) as Error & { code: string };
error.code = 'MODULE_NOT_FOUND';
throw error;
