// Saves a file through the browser's own download: a Blob and a temporary <a download> link.
// The same in Electron's window and in the browser host.
export function downloadBytes(data: Uint8Array | string, fileName: string, type: string): void {
  // A copy on its own ArrayBuffer: the bytes may be a view into a larger (or shared) buffer.
  const url = URL.createObjectURL(new Blob([typeof data === 'string' ? data : new Uint8Array(data)], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken its copy once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
