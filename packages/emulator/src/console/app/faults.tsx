import { useConsole } from './console-context';
import { control } from './control';
import type { FaultView } from './control-types';
import { Empty, LoadError } from './empty';
import { FaultForm } from './fault-form';
import { FaultTable } from './fault-table';
import { useLiveData } from './live-data';

/** Injected faults: the form that adds one, the list with uses left, delete one or all. */
export function Faults() {
  const { act } = useConsole();
  // A /v1 request uses a fault up: its `remaining` changes with requests, not only control calls.
  const faults = useLiveData(() => control.listFaults({ limit: 100 }), [], ['request', 'control', 'reset']);
  const remove = (fault: FaultView) =>
    act(async () => {
      await control.deleteFault(fault.id);
      return 'Fault removed.';
    });
  const clear = () =>
    act(async () => {
      await control.clearFaults();
      return 'Every fault removed.';
    });
  const list = faults.data?.data ?? [];
  return (
    <section id="faults" aria-labelledby="faults-title">
      <h3 id="faults-title">Faults</h3>
      <p class="muted">
        The next matching /v1 requests get this answer instead of the real one: from any application, or only
        those whose API key starts with the prefix given.
      </p>
      <FaultForm canClear={list.length > 0} onClear={clear} />
      <LoadError error={faults.error} />
      <div id="fault-list" class="table-wrap">
        {faults.data &&
          (list.length === 0 ? (
            <Empty>No fault: every /v1 request gets its real answer.</Empty>
          ) : (
            <FaultTable faults={list} onRemove={remove} />
          ))}
      </div>
    </section>
  );
}
