// The template picker against the real core and its sandbox: the service's templates a page at
// a time, the last one used chosen for the vet, a search, and the error and retry states.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type * as PickerModule from '../../../../src/renderer/src/components/template-picker.tsx';
import type * as SettingsStore from '../../../../src/renderer/src/stores/settings.ts';
import type * as TemplatesStore from '../../../../src/renderer/src/stores/templates.ts';
import { windowWithEngine } from '../../support/window.ts';

let core: AppCore;
let stores: { useTemplates: typeof TemplatesStore.useTemplates; useSettings: typeof SettingsStore.useSettings };

let TemplatePicker: typeof PickerModule.TemplatePicker;

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  const [templates, settings, picker] = await Promise.all([
    import('../../../../src/renderer/src/stores/templates.ts'),
    import('../../../../src/renderer/src/stores/settings.ts'),
    import('../../../../src/renderer/src/components/template-picker.tsx'),
  ]);
  stores = { useTemplates: templates.useTemplates, useSettings: settings.useSettings };
  TemplatePicker = picker.TemplatePicker;
}, 30_000);

afterEach(() => {
  cleanup();
  stores.useTemplates.setState({
    items: [],
    page: 0,
    pageSize: 50,
    hasMore: false,
    total: null,
    status: 'idle',
    error: null,
  });
});

afterAll(async () => {
  await core.stop();
});

/** A screen that owns the chosen template, as the recorder does. */
function Harness({ onChosen }: { onChosen?: (id: string | null) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <TemplatePicker
        value={value}
        onChange={(id) => {
          setValue(id);
          onChosen?.(id);
        }}
      />
      <output data-testid="chosen">{value ?? 'none'}</output>
    </>
  );
}

const optionNames = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('templates store', () => {
  it('loads page 1 of the sandbox templates, 50 a page', async () => {
    await stores.useTemplates.getState().load();
    const s = stores.useTemplates.getState();
    expect(s.status).toBe('ready');
    expect(s.page).toBe(1);
    expect(s.items.map((t) => t.name)).toContain('SOAP');
    // The published service pages with has_next and gives no total.
    expect(s.total).toBeNull();
    const all = (await core.session.withToken((t) => core.client.templates(t, 1, 100))).items;
    expect(s.items.map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect(s.items.length).toBeGreaterThan(5);
    expect(s.hasMore).toBe(false);
    expect(new Set(s.items.map((t) => t.id)).size).toBe(s.items.length);
  });
});

describe('TemplatePicker', () => {
  it('preselects the last template used', async () => {
    await stores.useTemplates.getState().load();
    const sick = stores.useTemplates.getState().items.find((t) => t.name === 'Sick visit');
    expect(sick).toBeDefined();
    await stores.useSettings.getState().update({ lastTemplateId: sick!.id });
    stores.useTemplates.setState({ items: [], page: 0, status: 'idle' });

    const chosen: (string | null)[] = [];
    render(<Harness onChosen={(id) => chosen.push(id)} />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(select.value).toBe(sick!.id));
    expect(select.selectedOptions[0]?.textContent).toBe('Sick visit');
    expect(chosen).toEqual([sick!.id]);
    expect(screen.getByText(sick!.description!)).toBeTruthy();
  });

  it('does not override a choice the vet made', async () => {
    await stores.useSettings.getState().update({ lastTemplateId: null });
    render(<Harness />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(optionNames(select)).toContain('Dental procedure'));
    const dental = stores.useTemplates.getState().items.find((t) => t.name === 'Dental procedure')!;
    fireEvent.change(select, { target: { value: dental.id } });
    expect(screen.getByTestId('chosen').textContent).toBe(dental.id);
    fireEvent.change(select, { target: { value: '' } });
    expect(screen.getByTestId('chosen').textContent).toBe('none');
  });

  it('filters the list by the search text and keeps the chosen template listed', async () => {
    await stores.useSettings.getState().update({ lastTemplateId: null });
    render(<Harness />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(optionNames(select)).toContain('Surgery report'));
    const all = optionNames(select).length;
    const soap = stores.useTemplates.getState().items.find((t) => t.name === 'SOAP')!;
    fireEvent.change(select, { target: { value: soap.id } });

    // Two templates speak of anaesthesia: the chosen one stays chosen, and listed.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'anaesthesia' } });
    const shown = optionNames(select);
    expect(shown).toContain('Surgery report');
    expect(shown).toContain('Dental procedure');
    expect(shown).toContain('SOAP');
    expect(shown).not.toContain('Vaccination visit');
    expect(shown.length).toBeLessThan(all);
    expect(select.value).toBe(soap.id);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'zzz-nothing' } });
    expect(screen.getByText('No template matches “zzz-nothing”.')).toBeTruthy();
  });

  it('a search that leaves one template chooses it, and says no "no match" for it', async () => {
    await stores.useSettings.getState().update({ lastTemplateId: null });
    const chosen: (string | null)[] = [];
    render(<Harness onChosen={(id) => chosen.push(id)} />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(optionNames(select)).toContain('Surgery report'));
    const soap = stores.useTemplates.getState().items.find((t) => t.name === 'SOAP')!;
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'soa' } });
    await waitFor(() => expect(select.value).toBe(soap.id));
    expect(chosen).toEqual([soap.id]);
    expect(screen.queryByText(/No template matches/)).toBeNull();
    expect(screen.getByText(soap.description!)).toBeTruthy();
  });

  it('while the templates load, a chosen template is shown as loading, never by its id', async () => {
    const id = stores.useTemplates.getState().items[0]?.id ?? 'f8c71d19-0000-4000-8000-000000000000';
    stores.useTemplates.setState({ items: [], status: 'loading' });
    render(<TemplatePicker value={id} onChange={() => undefined} preselectLast={false} />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    expect(optionNames(select)).toContain('Loading templates…');
    expect(select.textContent).not.toContain(id);
  });

  /** The picker with no template remembered, showing the first page of four templates. */
  async function firstPageOfFour(): Promise<HTMLSelectElement> {
    await stores.useSettings.getState().update({ lastTemplateId: null });
    stores.useTemplates.setState({ pageSize: 4 });
    render(<Harness />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    // The first option is "No template chosen yet".
    await waitFor(() => expect(optionNames(select).length).toBe(1 + 4));
    return select;
  }

  it('loads further pages with "Load more templates"', async () => {
    const select = await firstPageOfFour();
    fireEvent.click(await screen.findByRole('button', { name: 'Load more templates' }));
    await waitFor(() => expect(optionNames(select).length).toBe(1 + 8));
    // Pages follow while the service says there is a next one (has_next; no total is given).
    const total = (await core.session.withToken((t) => core.client.templates(t, 1, 100))).items.length;
    expect(total).toBeGreaterThan(8);
    while (screen.queryByRole('button', { name: 'Load more templates' })) {
      const before = optionNames(select).length;
      fireEvent.click(screen.getByRole('button', { name: 'Load more templates' }));
      await waitFor(() => expect(optionNames(select).length).toBeGreaterThan(before));
    }
    expect(optionNames(select).length).toBe(1 + total);
    expect(stores.useTemplates.getState().hasMore).toBe(false);
  });

  it('a search looks through the pages not loaded yet, and says "no match" only when all are', async () => {
    const select = await firstPageOfFour();
    const all = (await core.session.withToken((t) => core.client.templates(t, 1, 100))).items;
    const last = all.at(-1)!;
    expect(optionNames(select)).not.toContain(last.name);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), {
      target: { value: last.name.toLowerCase() },
    });
    await waitFor(() => expect(optionNames(select)).toContain(last.name));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'zzz-nothing' } });
    await screen.findByText('No template matches “zzz-nothing”.');
    expect(stores.useTemplates.getState().items).toHaveLength(all.length);
  });

  it('preselects the last template used when it is on a later page', async () => {
    const all = (await core.session.withToken((t) => core.client.templates(t, 1, 100))).items;
    const last = all.at(-1)!;
    await stores.useSettings.getState().update({ lastTemplateId: last.id });
    stores.useTemplates.setState({ pageSize: 4 });
    render(<Harness />);
    await waitFor(() => expect(screen.getByTestId('chosen').textContent).toBe(last.id));
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' }).value).toBe(last.id);
  });

  it('shows the error and loads on "Try again"', async () => {
    await core.session.signOut('user');
    render(<Harness />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Could not load the templates/);
    expect(stores.useTemplates.getState().items).toEqual([]);

    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    await act(async () => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    });
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(optionNames(select)).toContain('SOAP'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
