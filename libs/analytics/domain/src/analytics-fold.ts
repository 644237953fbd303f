/**
 * The whole replay as one fold: every event teaches the index, the ones that pass the filter go
 * to the four reports. Pure: the same events in the same order give the same reports.
 */
import { AgentReportFold } from './agent-report.js';
import { BonusOutcomesFold } from './bonus-outcomes.js';
import { REPORT_COLUMNS, REPORT_TITLES } from './columns.js';
import { passes, type ReplayFilter } from './filter.js';
import { GamePerformanceFold, type CatalogGameFacts } from './game-performance.js';
import { DEFAULT_MEMORY_HORIZON_MS, LogIndex, type LogEvent } from './log-index.js';
import { OperatorDays } from './operator-day.js';
import type { Report, ReportName, ReportRows } from './report-model.js';
import { WalletDeliveryFold } from './wallet-delivery.js';

export interface AnalyticsSettings {
  filter: ReplayFilter;
  /** gameId → what the catalogue says of it. */
  catalog: ReadonlyMap<number, CatalogGameFacts>;
  /** The operator's configured time zone (the log does not record it). */
  timeZoneOf: (operatorId: string) => string;
  /**
   * How long (log time) a session, round or transaction is remembered after the log last named
   * it; default 48 hours. Bounds the replay's memory by the log's activity in that time.
   */
  memoryHorizonMs?: number;
}

/** Events between two looks at the log clock: reading every event's instant would cost a Date.parse each. */
const CLOCK_EVERY = 1024;

/** Said under the reports because the log cannot answer it (see docs/analyst-guide.md). */
const NOTES: { readonly [Name in ReportName]: readonly string[] } = {
  'bonus-outcomes': [],
  'game-performance': [
    'Demo rounds are not in the log (the game-server keeps demo play in memory): demo play is not counted here.',
  ],
  agent: [
    'Streamer sessions are excluded; demo sessions move no money. Days are in each operator\u2019s configured time zone.',
  ],
  'wallet-delivery': [],
};

export class AnalyticsFold {
  readonly index: LogIndex;
  private readonly bonusOutcomes = new BonusOutcomesFold();
  private readonly gamePerformance: GamePerformanceFold;
  private readonly agent: AgentReportFold;
  private readonly walletDelivery: WalletDeliveryFold;
  private counted = 0;
  private seen = 0;
  /** An empty filter passes everything: the subject lookup is skipped (most of a full replay's cost). */
  private readonly filtered: boolean;

  constructor(private readonly settings: AnalyticsSettings) {
    this.filtered = Object.values(settings.filter).some((value) => value !== undefined);
    const horizonMs = settings.memoryHorizonMs ?? DEFAULT_MEMORY_HORIZON_MS;
    this.index = new LogIndex(horizonMs);
    this.gamePerformance = new GamePerformanceFold(settings.catalog);
    this.agent = new AgentReportFold(new OperatorDays(settings.timeZoneOf), horizonMs);
    this.walletDelivery = new WalletDeliveryFold(horizonMs);
  }

  /** Events read, and events that passed the filter. */
  get stats(): { seen: number; counted: number } {
    return { seen: this.seen, counted: this.counted };
  }

  /** Applies one event; true when it passed the filter. */
  apply(entry: LogEvent): boolean {
    if (this.seen % CLOCK_EVERY === 0) {
      const nowMs = entry.occurredAtMs;
      this.index.advance(nowMs);
      this.agent.advance(nowMs);
      this.walletDelivery.advance(nowMs);
    }
    this.seen += 1;
    this.index.learn(entry);
    if (this.filtered && !passes(this.settings.filter, entry, this.index.subjectOf(entry))) return false;
    this.counted += 1;
    this.bonusOutcomes.apply(entry);
    this.gamePerformance.apply(entry, this.index);
    this.agent.apply(entry, this.index);
    this.walletDelivery.apply(entry, this.index);
    return true;
  }

  report<Name extends ReportName>(name: Name): Report<ReportRows[Name]> {
    const rows = this.rowsOf(name) as unknown as ReportRows[Name][];
    return { name, title: REPORT_TITLES[name], columns: REPORT_COLUMNS[name], rows, notes: this.notesOf(name) };
  }

  private notesOf(name: ReportName): readonly string[] {
    const unmatched = this.agent.unmatchedAnswers;
    if (name !== 'agent' || unmatched === 0) return NOTES[name];
    return [
      ...NOTES[name],
      `${unmatched} wallet answers had no request in memory (requested before the log starts, or more than the memory horizon before the answer): their money is not counted.`,
    ];
  }

  /** The report with its row type erased: what the formats take. */
  untypedReport(name: ReportName): Report {
    return this.report(name) as unknown as Report;
  }

  private rowsOf(name: ReportName): readonly unknown[] {
    switch (name) {
      case 'bonus-outcomes':
        return this.bonusOutcomes.rows();
      case 'game-performance':
        return this.gamePerformance.rows();
      case 'agent':
        return this.agent.rows();
      case 'wallet-delivery':
        return this.walletDelivery.rows();
    }
  }
}
