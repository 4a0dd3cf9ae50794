// The microphones as the vet sees them. Before the app may use the microphone the browser
// hides their names (and, in Chromium, lists one nameless device), so they are numbered.

export interface InputDevice {
  deviceId: string;
  label: string;
}

// Chromium's aliases for "whatever the system uses": the empty choice means the same.
const ALIASES = new Set(['', 'default', 'communications']);

export function describeDevices(devices: readonly Pick<MediaDeviceInfo, 'deviceId' | 'kind' | 'label'>[]): {
  devices: InputDevice[];
  namesHidden: boolean;
} {
  const inputs = devices.filter((d) => d.kind === 'audioinput');
  const namesHidden = inputs.some((d) => d.label === '');
  const listed = inputs.filter((d) => !ALIASES.has(d.deviceId));
  return {
    devices: listed.map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Microphone ${i + 1}` })),
    namesHidden,
  };
}
