// How IPC arguments travel over HTTP in the browser host: JSON, with bytes (the recorder's
// chunks) as { "$bytes": base64 }. Pure, so the window's HTTP bridge uses it too.
export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) {
      let binary = '';
      for (let i = 0; i < v.length; i += 0x8000) binary += String.fromCharCode(...v.subarray(i, i + 0x8000));
      return { $bytes: btoa(binary) };
    }
    return v;
  });
}

export function decodeWire(text: string): unknown {
  if (text.trim() === '') return undefined;
  return JSON.parse(text, (_key, v: unknown) => {
    if (
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.keys(v).length === 1 &&
      typeof (v as { $bytes?: unknown }).$bytes === 'string'
    ) {
      const binary = atob((v as { $bytes: string }).$bytes);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    }
    return v;
  });
}
