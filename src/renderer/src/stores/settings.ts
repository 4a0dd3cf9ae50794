// The settings, mirrored from main.
import { create } from 'zustand';
import type { Settings, SettingsPatch } from '../../../shared/settings.ts';
import { api } from '../api.ts';

interface SettingsState {
  settings: Settings | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<Settings>;
}

// Only the last read counts: one made before a change of vet may answer after the next vet's.
let lastLoad = 0;

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  async load() {
    const mine = ++lastLoad;
    const settings = await api.settings.get();
    if (mine === lastLoad) set({ settings });
  },
  async update(patch) {
    const settings = await api.settings.update(patch);
    set({ settings });
    return settings;
  },
}));

/** Main's `session:changed`: the last template offered is the signed-in vet's own, so the settings are read again. */
export function reloadSettings(): void {
  void useSettings
    .getState()
    .load()
    .catch(() => undefined);
}
