/**
 * `GET /metrics`: Prometheus text format through `prom-client`, one registry per relay (several
 * relays can run in one process). Load figures are read from the relay when scraped; counters of
 * the hot path (frames and bytes routed) are plain numbers the routing code bumps, handed to
 * `prom-client` at scrape time so routing a frame costs an addition, not a metric lookup.
 *
 * Every series is a count: no room ids, tokens or addresses appear as labels.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import type { ErrorCode } from "../protocol.js";

/** Load figures read at scrape time. */
export interface MetricsSource {
  rooms: number;
  connections: number;
  bufferedBytes: number;
  bufferedFrames: number;
  pausedConnections: number;
  awayParties: number;
  heldBytes: number;
  heldFrames: number;
  parkedFrames: number;
  collections: number;
  collectionScheduled: number;
}

/** Counters the relay bumps directly. */
export class RelayCounters {
  framesRouted = 0;
  bytesRouted = 0;
  roomsCreated = 0;
  joins = 0;
  resumes = 0;
  stalls = 0;
}

/** The metrics of one relay. */
export class RelayMetrics {
  readonly registry = new Registry();
  readonly counters = new RelayCounters();
  private readonly refusals: Counter<"code">;
  private readonly departures: Counter<"reason">;

  constructor(source: () => MetricsSource) {
    const registers = [this.registry];
    const counters = this.counters;
    collectDefaultMetrics({ register: this.registry, prefix: "chorus_relay_" });
    const gauge = (name: string, help: string, read: (s: MetricsSource) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(source()));
        },
      });
    };
    gauge("chorus_relay_rooms", "Rooms that exist.", (s) => s.rooms);
    gauge("chorus_relay_connections", "Parties connected to a room slot.", (s) => s.connections);
    gauge("chorus_relay_buffered_bytes", "Payload bytes queued towards parties, not yet handed to the kernel.", (s) => s.bufferedBytes);
    gauge("chorus_relay_buffered_frames", "Frames queued towards parties, not yet handed to the kernel.", (s) => s.bufferedFrames);
    gauge("chorus_relay_paused_senders", "Parties the relay stops reading from because a destination is full.", (s) => s.pausedConnections);
    gauge("chorus_relay_away_parties", "Parties whose connection dropped and who may still resume.", (s) => s.awayParties);
    gauge("chorus_relay_held_bytes", "Bytes kept for resumes (unacknowledged or held for away parties).", (s) => s.heldBytes);
    gauge("chorus_relay_held_frames", "Frames kept for resumes (unacknowledged or held for away parties).", (s) => s.heldFrames);
    gauge("chorus_relay_parked_frames", "Frames read from paused senders, waiting to be routed.", (s) => s.parkedFrames);
    gauge("chorus_relay_heap_collection_scheduled", "1 while a full heap collection after large departures is scheduled.", (s) => s.collectionScheduled);
    const counter = (name: string, help: string, read: () => number): void => {
      let reported = 0;
      new Counter({
        name,
        help,
        registers,
        collect() {
          const now = read();
          if (now > reported) this.inc(now - reported);
          reported = now;
        },
      });
    };
    counter("chorus_relay_frames_routed_total", "Data frames forwarded between parties.", () => counters.framesRouted);
    counter("chorus_relay_bytes_routed_total", "Bytes of data frames forwarded, header byte included.", () => counters.bytesRouted);
    counter("chorus_relay_rooms_created_total", "Rooms created.", () => counters.roomsCreated);
    counter("chorus_relay_joins_total", "Successful joins of a room slot.", () => counters.joins);
    counter("chorus_relay_resumes_total", "Parties that resumed their slot after a dropped connection.", () => counters.resumes);
    counter("chorus_relay_stalls_total", "Parties cut because frames waited for them and they read none.", () => counters.stalls);
    counter("chorus_relay_heap_collections_total", "Full heap collections run after large departures.", () => source().collections);
    this.refusals = new Counter({
      name: "chorus_relay_refusals_total",
      help: "Requests, upgrades and frames refused, by error code.",
      labelNames: ["code"],
      registers,
    });
    this.departures = new Counter({
      name: "chorus_relay_departures_total",
      help: "Parties that left their slot for good, by reason.",
      labelNames: ["reason"],
      registers,
    });
  }

  /** Counts one refusal. */
  refused(code: ErrorCode): void {
    this.refusals.inc({ code });
  }

  /** Counts one departure. */
  departed(reason: string): void {
    this.departures.inc({ reason });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
