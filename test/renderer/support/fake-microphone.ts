// jsdom has no microphone, MediaRecorder or Web Audio. These stand-ins are only the browser's
// edge: a microphone track that can end, an audio graph that reads silence, and a MediaRecorder
// that hands over real MediaRecorder output (the chunks of a fixture) one by one, so what the
// window sends reaches the real engine as a real recording would. The microphone itself is
// exercised by the Playwright suite, with Chromium's fake audio device.

class FakeTrack extends EventTarget {
  readyState: 'live' | 'ended' = 'live';
  stop() {
    this.readyState = 'ended';
  }
  getSettings() {
    return { deviceId: 'default' };
  }
}

class FakeStream {
  readonly tracks = [new FakeTrack()];
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks;
  }
}

class FakeAudioContext {
  createAnalyser() {
    return { fftSize: 2048, getFloatTimeDomainData: (a: Float32Array) => a.fill(0) };
  }
  createMediaStreamSource() {
    return { connect: () => undefined };
  }
  resume() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

/** Installs the stand-ins; `chunks` are handed over one per second of recording, and the rest at Stop. */
export function installFakeMicrophone(chunks: Uint8Array[], mimeType: string): { restore(): void } {
  class FakeMediaRecorder extends EventTarget {
    static isTypeSupported(type: string) {
      return type === mimeType;
    }
    state: 'inactive' | 'recording' | 'paused' = 'inactive';
    private next = 0;
    private timer: ReturnType<typeof setInterval> | null = null;
    private hand() {
      const chunk = chunks[this.next++];
      if (!chunk) return;
      const event = new Event('dataavailable') as Event & { data: Blob };
      event.data = new Blob([chunk as Uint8Array<ArrayBuffer>], { type: mimeType });
      this.dispatchEvent(event);
    }
    start(timeslice: number) {
      this.state = 'recording';
      this.timer = setInterval(() => {
        if (this.state === 'recording') this.hand();
      }, timeslice);
    }
    pause() {
      this.state = 'paused';
    }
    resume() {
      this.state = 'recording';
    }
    stop() {
      if (this.timer) clearInterval(this.timer);
      this.state = 'inactive';
      setTimeout(() => {
        while (this.next < chunks.length) this.hand();
        this.dispatchEvent(new Event('stop'));
      }, 0);
    }
  }
  const saved = {
    MediaRecorder: globalThis.MediaRecorder,
    AudioContext: globalThis.AudioContext,
    mediaDevices: navigator.mediaDevices,
  };
  const define = (target: object, key: string, value: unknown) =>
    Object.defineProperty(target, key, { configurable: true, writable: true, value });
  define(globalThis, 'MediaRecorder', FakeMediaRecorder);
  define(globalThis, 'AudioContext', FakeAudioContext);
  define(navigator, 'mediaDevices', {
    getUserMedia: async () => new FakeStream(),
    enumerateDevices: async () => [{ kind: 'audioinput', deviceId: 'default', label: 'Microphone', groupId: '' }],
    addEventListener: () => undefined,
  });
  return {
    restore() {
      define(globalThis, 'MediaRecorder', saved.MediaRecorder);
      define(globalThis, 'AudioContext', saved.AudioContext);
      define(navigator, 'mediaDevices', saved.mediaDevices);
    },
  };
}
