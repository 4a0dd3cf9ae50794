// The microphone the recording uses: the system default, the one chosen last time (even when
// it is not connected, so the choice is not lost), or any other the system lists. Names show
// only once the window may use the microphone; a button asks for it.
import { useId } from 'react';
import { FormField } from '../../components/form-field.tsx';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { chooseDevice, revealDeviceNames } from './recorder-controller.ts';

function Choices({ choices }: { choices: { value: string; label: string }[] }) {
  return choices.map((c) => (
    <option key={c.value} value={c.value}>
      {c.label}
    </option>
  ));
}

export function MicrophoneField() {
  const { deviceId, devices, deviceNamesHidden, status, supported } = useRecorder();
  const id = useId();
  const known = deviceId === '' || devices.some((d) => d.deviceId === deviceId);
  const lastChosen = deviceNamesHidden
    ? 'The microphone chosen last time'
    : 'The microphone chosen last time (not connected)';
  const choices = [
    { value: '', label: 'System default microphone' },
    ...(known ? [] : [{ value: deviceId, label: lastChosen }]),
    ...devices.map((d) => ({ value: d.deviceId, label: d.label })),
  ];
  return (
    <div>
      <FormField id={id} label="Microphone">
        {(control) => (
          <select
            {...control}
            value={deviceId}
            onChange={(e) => chooseDevice(e.target.value)}
            disabled={!supported || isCapturing(status)}
          >
            <Choices choices={choices} />
          </select>
        )}
      </FormField>
      {isCapturing(status) && <p className="field-hint">The microphone can be changed when the recording has ended.</p>}
      {!known && !deviceNamesHidden && (
        <p className="field-hint">The microphone chosen last time is not connected; the system default will be used.</p>
      )}
      {deviceNamesHidden && !isCapturing(status) && supported && (
        <p className="field-hint">
          Microphone names show once Vet Scribe may use the microphone.{' '}
          <button type="button" className="link" onClick={() => void revealDeviceNames()}>
            Show microphone names
          </button>
        </p>
      )}
    </div>
  );
}
