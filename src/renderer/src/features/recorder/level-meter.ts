// The level meter of the microphone in use: an analyser on the recording's stream, read by the
// recording's tick. Its AudioContext is closed when the recording ends, however it ends.
import { levelFromSamples } from './audio-level.ts';

export interface LevelMeter {
  /** The input level now, 0-100 (audio-level.ts). */
  read(): number;
  close(): void;
}

export function connectLevelMeter(context: AudioContext, stream: MediaStream): LevelMeter {
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  void context.resume().catch(() => undefined);
  const samples = new Float32Array(analyser.fftSize);
  return {
    read() {
      analyser.getFloatTimeDomainData(samples);
      return levelFromSamples(samples);
    },
    close() {
      void context.close().catch(() => undefined);
    },
  };
}
