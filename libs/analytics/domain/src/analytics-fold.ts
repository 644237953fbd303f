/**
 * The whole replay as one fold: every event teaches the index, the ones that pass the filter go
 * to the reports; a campaign stream's events (applyCampaign) go to the campaigns report alone. Pure: the same events in the same order give the same reports.
 */
import { AgentReportFold } from './agent-report.js';
import { BonusOutcomesFold } from './bonus-outcomes.js';
import { BonusReturnFold, DEFAULT_BONUS_RETURN_WINDOW_DAYS } from './bonus-return.js';
import { CampaignsFold, type CampaignLogEvent } from './campaigns.js';
import {
  gamePerformanceByPeriodColumns,
  REPORT_COLUMNS,
  REPORT_TITLES,
  walletDeliveryByPeriodColumns,
} from './columns.js';
import { passes, passesCampaign, type ReplayFilter } from './filter.js';
import { GamePerformanceFold, type CatalogGameFacts } from './game-performance.js';
import { DEFAULT_MEMORY_HORIZON_MS, LogIndex, type LogEvent } from './log-index.js';
import { OperatorDays } from './operator-day.js';
import type { Column, Report, ReportName, ReportRows } from './report-model.js';
import { WalletDeliveryFold } from './wallet-delivery.js';
import { DEFAULT_WALLET_SLA, WalletSlaFold, type SlaPeriod, type WalletSlaSettings } from './wallet-sla.js';

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
  /** bonus-return: days after each bonus's registration counted (`--window`); default 7. */
  bonusReturnWindowDays?: number;
  /** wallet-sla: `--by`, `--target-ms`, `--storm-attempts`; default by day, the dispatcher's limits, 3 attempts. */
  walletSla?: WalletSlaSettings;
  /**
   * game-performance and wallet-delivery: `--by`, one row per hour or day in the operator's zone
   * as well; absent, one row for the whole range (their columns unchanged).
   */
  by?: SlaPeriod | undefined;
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
  campaigns: [
    'Counted in the range: players named, registered and refused, spins and ends recorded in it; a call belongs to its campaign whenever it was registered.',
  ],
  'bonus-return': [
    'A bonus\u2019s window opens at its registration and lasts the window, or until the same player\u2019s next bonus: each bet counts once. Streamer sessions are excluded.',
  ],
  'wallet-sla': [
    'Latencies from each call to its answer (time-outs included), in the period the call started: exact below 10 s, within 1 % above.',
  ],
};

export class AnalyticsFold {
  readonly index: LogIndex;
  private readonly bonusOutcomes = new BonusOutcomesFold();
  private readonly gamePerformance: GamePerformanceFold;
  private readonly agent: AgentReportFold;
  private readonly walletDelivery: WalletDeliveryFold;
  private readonly campaigns = new CampaignsFold();
  private readonly bonusReturn: BonusReturnFold;
  private readonly walletSla: WalletSlaFold;
  private counted = 0;
  private seen = 0;
  /** An empty filter passes everything: the subject lookup is skipped (most of a full replay's cost). */
  private readonly filtered: boolean;

  constructor(private readonly settings: AnalyticsSettings) {
    this.filtered = Object.values(settings.filter).some((value) => value !== undefined);
    const horizonMs = settings.memoryHorizonMs ?? DEFAULT_MEMORY_HORIZON_MS;
    this.index = new LogIndex(horizonMs);
    const days = new OperatorDays(settings.timeZoneOf);
    const periods = settings.by === undefined ? undefined : { days, by: settings.by };
    this.gamePerformance = new GamePerformanceFold(settings.catalog, periods);
    this.agent = new AgentReportFold(days, horizonMs);
    this.walletDelivery = new WalletDeliveryFold(horizonMs, periods);
    const windowDays = settings.bonusReturnWindowDays ?? DEFAULT_BONUS_RETURN_WINDOW_DAYS;
    this.bonusReturn = new BonusReturnFold(days, windowDays, horizonMs);
    this.walletSla = new WalletSlaFold(days, settings.walletSla ?? DEFAULT_WALLET_SLA, horizonMs);
  }

  /** Events read, and events that passed the filter. */
  get stats(): { seen: number; counted: number } {
    return { seen: this.seen, counted: this.counted };
  }

  /** Applies one event; true when it passed the filter. */
  apply(entry: LogEvent): boolean {
    this.tick(entry.occurredAtMs);
    this.index.learn(entry);
    this.campaigns.learn(entry);
    if (this.filtered && !passes(this.settings.filter, entry, this.index.subjectOf(entry))) return false;
    this.counted += 1;
    this.bonusOutcomes.apply(entry);
    this.gamePerformance.apply(entry, this.index);
    this.agent.apply(entry, this.index);
    this.walletDelivery.apply(entry, this.index);
    this.campaigns.apply(entry);
    this.bonusReturn.apply(entry, this.index);
    this.walletSla.apply(entry, this.index);
    return true;
  }

  /**
   * Applies one event of a campaign stream (only the campaigns report reads them); true when the
   * filter counted something of it (the campaign, or one of the players it names).
   */
  applyCampaign(entry: CampaignLogEvent): boolean {
    this.tick(entry.occurredAtMs);
    this.index.operators.add(entry.operatorId);
    const { filter } = this.settings;
    let any = false;
    this.campaigns.applyCampaign(entry, (playerId) => {
      if (!this.filtered) return (any = true);
      const facts =
        entry.event.type === 'CampaignStarted'
          ? entry.event.data.terms
          : this.campaigns.factsOf(entry.operatorId, entry.campaignId);
      const counts = passesCampaign(filter, entry, facts, playerId);
      any ||= counts;
      return counts;
    });
    if (any) this.counted += 1;
    return any;
  }

  private tick(nowMs: number): void {
    if (this.seen % CLOCK_EVERY === 0) {
      this.index.advance(nowMs);
      this.agent.advance(nowMs);
      this.walletDelivery.advance(nowMs);
      this.bonusReturn.advance(nowMs);
      this.walletSla.advance(nowMs);
    }
    this.seen += 1;
  }

  report<Name extends ReportName>(name: Name): Report<ReportRows[Name]> {
    const rows = this.rowsOf(name) as unknown as ReportRows[Name][];
    return { name, title: REPORT_TITLES[name], columns: this.columnsOf(name), rows, notes: this.notesOf(name) };
  }

  private columnsOf<Name extends ReportName>(name: Name): readonly Column<ReportRows[Name]>[] {
    if (this.settings.by !== undefined) {
      const byPeriod: Partial<Record<ReportName, readonly unknown[]>> = {
        'game-performance': gamePerformanceByPeriodColumns,
        'wallet-delivery': walletDeliveryByPeriodColumns,
      };
      const columns = byPeriod[name];
      if (columns) return columns as readonly Column<ReportRows[Name]>[];
    }
    return REPORT_COLUMNS[name];
  }

  private notesOf(name: ReportName): readonly string[] {
    const unmatched = this.agent.unmatchedAnswers;
    if (name !== 'agent' || unmatched === 0) return NOTES[name];
    return [
      ...NOTES[name],
      `${unmatched} wallet answers had no request in memory (requested before the log starts, or more than the memory horizon before the answer): their money is not counted.`,
    ];
  }

  /** The agent report's distinct players per currency, over the whole period (its rows count them per day). */
  agentPlayersPerCurrency(): Map<string, number> {
    return this.agent.playersPerCurrency();
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
      case 'campaigns':
        return this.campaigns.rows();
      case 'bonus-return':
        return this.bonusReturn.rows();
      case 'wallet-sla':
        return this.walletSla.rows();
    }
  }
}
