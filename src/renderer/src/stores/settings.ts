// The settings, mirrored from main.
import { create } from 'zustand';
import type { Settings, SettingsPatch } from '../../../shared/settings.ts';
import { api } from '../api.ts';

interface SettingsState {
  settings: Settings | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<Settings>;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  async load() {
    set({ settings: await api.settings.get() });
  },
  async update(patch) {
    const settings = await api.settings.update(patch);
    set({ settings });
    return settings;
  },
}));

// The last template offered is the signed-in vet's own: read again when another vet signs in.
api.on(
  'session:changed',
  () =>
    void useSettings
      .getState()
      .load()
      .catch(() => undefined),
);
