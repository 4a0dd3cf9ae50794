// Saves text as a file through the browser's own download: a temporary <a download> link.
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
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
