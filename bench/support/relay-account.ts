// What bench/relay.ts counts once a case has run: for each PC, the events it got against the
// deliveries sent (lost, repeated, out of order, one delivery under two ids at two PCs), the
// time from each delivery to each PC, and how long the PCs of a killed relay took to come back.
import type { RelayPc } from './relay-pc.ts';

export interface Delivery {
  key: string;
  consult: number;
  status: number;
  body: string;
  signature: string;
  dueAt: number;
  /** performance.now() when first sent; null until then. */
  sentAt: number | null;
  answeredAt: number | null;
  /** Sent again to the other relay after the first relay died under it. */
  resent: boolean;
  duplicate: boolean;
}

export interface CaseResult {
  title: string;
  relays: number;
  kill: boolean;
  deliveries: Delivery[];
  pcs: RelayPc[];
  movedPcs: Set<number>;
  killAt: number | null;
  peakRssMb: (number | null)[];
  handled: number;
  sendSpanMs: number;
}

/** What each PC got against what was delivered: lost, repeated, order, and the latencies. */
export function account(r: CaseResult) {
  const byKey = new Map(r.deliveries.map((d) => [d.key, d]));
  const idOfKey = new Map<string, number>();
  let lost = 0;
  let repeated = 0;
  let worstLost = 0;
  let worstRepeated = 0;
  let outOfOrder = 0;
  let conflicting = 0;
  let malformed = 0;
  const sentToPc = { stayed: [] as number[], moved: [] as number[] };
  const answeredToPc: number[] = [];
  for (const pc of r.pcs) {
    malformed += pc.malformed.length;
    const keys = new Set(pc.receipts.map((x) => x.key));
    const pcLost = r.deliveries.filter((d) => !keys.has(d.key)).length;
    const pcRepeated = pc.receipts.length - keys.size + pc.receipts.filter((x) => !byKey.has(x.key)).length;
    lost += pcLost;
    repeated += pcRepeated;
    worstLost = Math.max(worstLost, pcLost);
    worstRepeated = Math.max(worstRepeated, pcRepeated);
    const statusSeen = new Map<number, number>();
    let lastId = 0;
    let inOrder = true;
    for (const x of pc.receipts) {
      const d = byKey.get(x.key);
      // Ids rise, the same id names the same delivery at every PC, and a consult's statuses
      // come in the order they were delivered.
      if (x.id <= lastId) inOrder = false;
      lastId = x.id;
      const known = idOfKey.get(x.key);
      if (known === undefined) idOfKey.set(x.key, x.id);
      else if (known !== x.id) conflicting += 1;
      if (d === undefined) continue;
      if ((statusSeen.get(d.consult) ?? -1) >= d.status) inOrder = false;
      statusSeen.set(d.consult, d.status);
      (r.movedPcs.has(pc.index) ? sentToPc.moved : sentToPc.stayed).push(x.at - (d.sentAt ?? Number.NaN));
      answeredToPc.push(x.at - (d.answeredAt ?? Number.NaN));
    }
    if (!inOrder) outOfOrder += 1;
  }
  const reconnectMs = [...r.movedPcs].map((i) => {
    const subs = r.pcs[i]?.subscriptions ?? [];
    const dropped = subs[0]?.droppedAt ?? Number.NaN;
    const back = subs.at(-1)?.readyAt ?? Number.NaN;
    return { fromKill: back - (r.killAt ?? Number.NaN), fromDrop: back - dropped, tries: subs.length - 1 };
  });
  return {
    lost,
    repeated,
    worstLost,
    worstRepeated,
    outOfOrder,
    conflicting,
    malformed,
    sentToPc,
    answeredToPc,
    reconnectMs,
  };
}
