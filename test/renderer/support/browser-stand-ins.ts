// The browser APIs the note view uses and jsdom lacks: ClipboardItem with the clipboard, and object
// URLs with a download link's save. The stand-ins keep what the window hands them, for the tests
// to read; nothing else of the window is stood in for.

/** Stands in for the browser's ClipboardItem: it keeps what it was given. */
export class TestClipboardItem {
  /** Whether the browser takes RTF on the clipboard (a test may say it does not). */
  static rtf = true;
  static supports(type: string): boolean {
    return type !== 'web text/rtf' || TestClipboardItem.rtf;
  }
  readonly items: Record<string, Blob>;
  constructor(items: Record<string, Blob>) {
    this.items = items;
  }
  get types(): string[] {
    return Object.keys(this.items);
  }
}

/** What the window handed the stand-ins, and a way to put them (back) in place. */
export interface BrowserStandIns {
  /** Each clipboard write of the window: its flavours as text. */
  written: Record<string, string>[];
  copiedText: string[];
  /** Each file a download link would have saved: its name and contents. */
  downloads: { name: string; blob: Blob }[];
  /** A clipboard that keeps each write; a test that installs another puts this one back. */
  workingClipboard: { write(items: TestClipboardItem[]): Promise<void>; writeText(t: string): Promise<void> };
  /** Installs ClipboardItem, the working clipboard, object URLs and the download catch. */
  install(): void;
}

export function browserStandIns(): BrowserStandIns {
  const written: Record<string, string>[] = [];
  const copiedText: string[] = [];
  const downloads: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];
  const workingClipboard = {
    async write(items: TestClipboardItem[]) {
      const flavours: Record<string, string> = {};
      for (const item of items)
        for (const [type, blob] of Object.entries(item.items)) flavours[type] = await blob.text();
      written.push(flavours);
    },
    writeText: async (t: string) => void copiedText.push(t),
  };
  function install(): void {
    Object.defineProperty(globalThis, 'ClipboardItem', { configurable: true, value: TestClipboardItem });
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: workingClipboard });
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return `blob:test/${blobs.length}`;
    };
    URL.revokeObjectURL = () => {};
    // The download link is clicked and taken away at once: note what it would have saved.
    document.addEventListener('click', (e) => {
      if (e.target instanceof HTMLAnchorElement && e.target.download) {
        e.preventDefault();
        downloads.push({ name: e.target.download, blob: blobs[Number(e.target.href.split('/').pop()) - 1]! });
      }
    });
  }
  return { written, copiedText, downloads, workingClipboard, install };
}
