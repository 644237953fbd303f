// The operator console: one page, one operator. It signs in with the operator's API token, keeps it
// in this tab's sessionStorage (never a cookie, never the URL: only this tab sends it, and only in
// the Authorization header of API v1 calls), and reads and acts through API v1 alone, so it sees
// exactly what the API shows the token's operator. Every action says what happened in #status;
// a refusal shows the API's code and message.
import { apiClient, ApiError } from './api.js';
import { healthChart } from './charts.js';
import { $, fill, h, table } from './dom.js';
import { LANGUAGES, languageOf, translator } from './i18n.js';

const TOKEN_KEY = 'reelstream.console.token';
const LANGUAGE_KEY = 'reelstream.console.language';
const VIEWS = ['bonuses', 'campaigns', 'player', 'health', 'letters'];
/** How many pages of a player's transactions the player view reads (of 500 each) to find the recent rounds. */
const TRANSACTION_PAGES = 10;

let language = languageOf(sessionStorage.getItem(LANGUAGE_KEY) ?? navigator.language ?? 'en');
let t = translator(language);
let api;
let games = [];

// ---- status line --------------------------------------------------------------------------------

function say(text, kind = 'ok') {
  const status = $('status');
  status.textContent = text;
  status.dataset['kind'] = kind;
}

function errorText(error) {
  if (!(error instanceof ApiError)) return String(error?.message ?? error);
  const details = error.details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
  return `${error.code}: ${error.message}${details === '' ? '' : ` (${details})`}`;
}

/** Runs an action: the button is busy meanwhile; a failure is said with the API's code and message. */
async function act(button, action) {
  if (button) button.disabled = true;
  document.body.dataset['busy'] = 'true';
  try {
    await action();
  } catch (error) {
    say(t('failed', { error: errorText(error) }), 'error');
  } finally {
    if (button) button.disabled = false;
    delete document.body.dataset['busy'];
  }
}

// ---- formatting -----------------------------------------------------------------------------------

const money = (amount, currency) =>
  amount === null || amount === undefined ? '—' : `${Number(amount).toFixed(2)} ${currency ?? ''}`.trim();
const when = (iso) => (iso ? new Date(iso).toLocaleString(language, { hour12: false }) : '—');
const statusBadge = (status) => h('span', { className: `badge badge-${status}` }, t(`st_${status}`));
const gameName = (gameId) => games.find((game) => game.gameId === gameId)?.name ?? String(gameId);

// ---- language -------------------------------------------------------------------------------------

function applyLanguage() {
  t = translator(language);
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset['i18n']);
  for (const element of document.querySelectorAll('[data-i18n-label]'))
    element.setAttribute('aria-label', t(element.dataset['i18nLabel']));
  for (const select of document.querySelectorAll('select.language')) select.value = language;
  document.title = `reelstream — ${t('console')}`;
}

function setupLanguages() {
  for (const select of document.querySelectorAll('select.language, #launch-language')) {
    fill(
      select,
      LANGUAGES.map((code) => h('option', { value: code }, translator(code)('languageName'))),
    );
  }
  for (const select of document.querySelectorAll('select.language'))
    select.addEventListener('change', () => {
      language = languageOf(select.value);
      sessionStorage.setItem(LANGUAGE_KEY, language);
      applyLanguage();
      if (api) show(currentView());
    });
  $('launch-language').value = language;
}

// ---- sign-in --------------------------------------------------------------------------------------

async function signIn(token) {
  const candidate = apiClient(token);
  const [, catalog] = await Promise.all([candidate.providers(), candidate.games()]);
  api = candidate;
  games = catalog;
  sessionStorage.setItem(TOKEN_KEY, token);
  for (const select of [$('campaign-game'), $('launch-game')])
    fill(
      select,
      games.map((game) =>
        h(
          'option',
          { value: String(game.gameId), disabled: select.id === 'campaign-game' && !game.supportsFreeSpins },
          `${game.name} (${game.gameId})`,
        ),
      ),
    );
  const freeSpinGame = games.find((game) => game.supportsFreeSpins);
  if (freeSpinGame) $('campaign-game').value = String(freeSpinGame.gameId);
  $('signin').hidden = true;
  $('app').hidden = false;
  show(currentView());
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  api = undefined;
  $('app').hidden = true;
  $('signin').hidden = false;
  $('token').value = '';
  $('token').focus();
}

// ---- views ----------------------------------------------------------------------------------------

function currentView() {
  const name = location.hash.slice(1).split('/')[0];
  return VIEWS.includes(name) ? name : 'bonuses';
}

function show(view) {
  for (const name of VIEWS) $(`view-${name}`).hidden = name !== view;
  for (const link of document.querySelectorAll('.tabs a'))
    if (link.dataset['view'] === view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  if (view === 'health') void act($('health-refresh'), loadHealth);
  if (view === 'letters') {
    void act($('wins-refresh'), () => loadDeadWins(false));
    void act($('hooks-refresh'), () => loadDeadHooks(false));
  }
}

// ---- bonuses --------------------------------------------------------------------------------------

const bonuses = { items: [], cursor: null };

/**
 * The first page of a paged list (`{items, cursor}`), or with `more` its next page after those shown;
 * the list's "More" button shows while pages are left.
 */
async function loadPage(list, more, fetchPage, moreButton) {
  const page = await fetchPage(more ? list.cursor : undefined);
  list.items = more ? [...list.items, ...page.items] : page.items;
  list.cursor = page.nextCursor;
  $(moreButton).hidden = page.nextCursor === null;
}

function bonusFilter() {
  return {
    playerId: $('filter-player').value.trim(),
    platformId: $('filter-platform').value.trim(),
    status: $('filter-status').value,
  };
}

async function loadBonuses(more) {
  await loadPage(bonuses, more, (cursor) => api.bonusCalls({ ...bonusFilter(), limit: '50', cursor }), 'bonus-more');
  renderBonusTable($('bonus-list'), bonuses.items);
  say(t('bonusesFound', { count: bonuses.items.length }));
}

function renderBonusTable(element, items) {
  table(
    element,
    [t('issueId'), t('platformId'), t('playerId'), t('status'), t('spins'), t('totalWin'), t('expires')],
    items,
    (bonus) => [
      h(
        'button',
        {
          type: 'button',
          className: 'link',
          'data-issue': bonus.issueId,
          onclick: () => act(null, () => openBonus(bonus.issueId)),
        },
        String(bonus.issueId),
      ),
      bonus.platformId,
      bonus.playerId,
      statusBadge(bonus.status),
      bonus.spinAmount === null ? '—' : `${bonus.spinsUsed} / ${bonus.spinAmount}`,
      money(bonus.totalWin, bonus.currency),
      when(bonus.expireAt),
    ],
    t('nothingFound'),
  );
}

/** Every transaction of a player, page by page (at most TRANSACTION_PAGES pages), in recorded order. */
async function playerTransactions(playerId) {
  const items = [];
  let cursor;
  for (let page = 0; page < TRANSACTION_PAGES; page++) {
    const answer = await api.transactions({ playerId, limit: '500', cursor });
    items.push(...answer.items);
    if (answer.nextCursor === null) break;
    cursor = answer.nextCursor;
  }
  return items;
}

async function openBonus(issueId) {
  const bonus = await api.bonusCall(issueId);
  const wins = (await playerTransactions(bonus.playerId)).filter(
    (transaction) => transaction.bonusId === bonus.issueId,
  );
  const detail = $('bonus-detail');
  detail.hidden = false;
  const history = [
    [t('ev_created'), bonus.createdAt],
    [t('ev_completed'), bonus.completedAt],
    [t('ev_canceled'), bonus.canceledAt],
    [t('ev_expired'), bonus.expiredAt],
  ].filter(([, at]) => at);
  const field = (name, value) => [h('dt', {}, name), h('dd', {}, value)];
  const cancel = h('button', { type: 'button', id: 'bonus-cancel', className: 'danger' }, t('cancelBonus'));
  const confirm = h(
    'button',
    { type: 'button', id: 'bonus-cancel-confirm', className: 'danger', hidden: true },
    t('confirmCancel', { id: bonus.issueId }),
  );
  cancel.addEventListener('click', () => {
    cancel.hidden = true;
    confirm.hidden = false;
    confirm.focus();
  });
  confirm.addEventListener('click', () =>
    act(confirm, async () => {
      const result = await api.cancel(bonus.issueId);
      await openBonus(bonus.issueId);
      if ($('bonus-list').querySelector(`[data-issue="${bonus.issueId}"]`)) await loadBonuses(false);
      say(t('canceled', { id: result.issueId }));
    }),
  );
  fill(
    detail,
    h('h3', {}, t('bonusTitle', { id: bonus.issueId })),
    h(
      'dl',
      { className: 'fields' },
      field(t('status'), statusBadge(bonus.status)),
      field(t('platformId'), bonus.platformId),
      field(t('playerId'), bonus.playerId),
      field(t('games'), bonus.gameIds.map(gameName).join(', ')),
      field(
        t('spins'),
        bonus.spinAmount === null
          ? '—'
          : t('spinsOf', { used: bonus.spinsUsed, total: bonus.spinAmount, left: bonus.spinsLeft }),
      ),
      field(t('spinBet'), money(bonus.baseBetAmount, bonus.currency)),
      field(t('totalWin'), money(bonus.totalWin, bonus.currency)),
      field(t('winCapLeft'), money(bonus.winCapLeft, bonus.currency)),
      field(t('expires'), when(bonus.expireAt)),
    ),
    h('h4', {}, t('history')),
    h(
      'ol',
      { className: 'history' },
      history.map(([name, at]) => h('li', {}, `${when(at)} — ${name}`)),
    ),
    h('h4', {}, t('spinsAndWins')),
    transactionsTable(wins),
    bonus.status === 'active' ? h('div', { className: 'actions' }, cancel, confirm) : null,
  );
  detail.querySelector('h3').tabIndex = -1;
  detail.querySelector('h3').focus();
  say(t('bonusShown', { id: bonus.issueId, spins: wins.length }));
}

function transactionsTable(transactions, withRound = true) {
  const element = h('table', { className: 'grid' });
  table(
    element,
    [
      withRound ? t('round') : null,
      t('transaction'),
      t('command'),
      t('amount'),
      t('status'),
      t('attempts'),
      t('lastError'),
      t('requestedAt'),
    ].filter(Boolean),
    transactions,
    (tx) =>
      [
        withRound
          ? h(
              'button',
              { type: 'button', className: 'link', onclick: () => act(null, () => openRound(tx.roundId)) },
              String(tx.roundId),
            )
          : null,
        String(tx.transactionId),
        tx.command +
          (tx.cancel
            ? ` (${t('canceledBy', { id: tx.cancel.transactionId, status: t(`tx_${tx.cancel.status}`) })})`
            : ''),
        money(tx.amount, tx.currency),
        h('span', { className: `badge badge-${tx.status}` }, t(`tx_${tx.status}`)),
        String(tx.attempts),
        tx.lastError ?? '—',
        when(tx.requestedAt),
      ].filter((cell) => cell !== null),
    t('nothingFound'),
  );
  return element;
}

// ---- rounds ---------------------------------------------------------------------------------------

async function openRound(roundId) {
  const round = await api.round(roundId);
  location.hash = '#player';
  $('player-view').hidden = false;
  if ($('player-id').value.trim() === '') $('player-id').value = round.playerId;
  const detail = $('round-detail');
  detail.hidden = false;
  fill(
    detail,
    h('h3', { tabIndex: -1 }, t('roundTitle', { id: round.roundId })),
    h(
      'p',
      {},
      `${gameName(round.gameId)} · ${t(`kind_${round.kind}`)} · ${t('bet')} ${money(round.bet, round.currency)} · ${t('win')} ${money(round.win, round.currency)} · `,
      h('span', { className: `badge badge-${round.status}` }, t(`round_${round.status}`)),
    ),
    h('p', { className: 'fine' }, `${when(round.startedAt)} → ${when(round.endedAt)}`),
    transactionsTable(round.transactions, false),
  );
  detail.querySelector('h3').focus();
  say(t('roundShown', { id: round.roundId }));
}

// ---- player ---------------------------------------------------------------------------------------

async function loadPlayer() {
  const playerId = $('player-id').value.trim();
  const [bonuses, transactions] = await Promise.all([
    api.bonusCalls({ playerId, limit: '50' }),
    playerTransactions(playerId),
  ]);
  $('player-view').hidden = false;
  $('round-detail').hidden = true;
  renderBonusTable($('player-bonuses'), bonuses.items);
  const rounds = new Map();
  for (const tx of transactions) {
    const round = rounds.get(tx.roundId) ?? {
      roundId: tx.roundId,
      gameId: tx.gameId,
      currency: tx.currency,
      at: tx.requestedAt,
      items: [],
    };
    round.items.push(tx);
    rounds.set(tx.roundId, round);
  }
  const recent = [...rounds.values()].reverse().slice(0, 20);
  table(
    $('player-rounds'),
    [t('round'), t('game'), t('requestedAt'), t('transactions')],
    recent,
    (round) => [
      h(
        'button',
        {
          type: 'button',
          className: 'link',
          'data-round': round.roundId,
          onclick: () => act(null, () => openRound(round.roundId)),
        },
        String(round.roundId),
      ),
      gameName(round.gameId),
      when(round.at),
      round.items.map((tx) => `${tx.command} ${money(tx.amount, tx.currency)} ${t(`tx_${tx.status}`)}`).join(' · '),
    ],
    t('nothingFound'),
  );
  say(t('playerShown', { id: playerId, bonuses: bonuses.items.length, rounds: rounds.size }));
}

async function launch() {
  const game = games.find((candidate) => String(candidate.gameId) === $('launch-game').value);
  if (!game) return;
  const url = await api.launch({
    playerId: $('player-id').value.trim(),
    providerId: game.providerId,
    gameId: game.gameId,
    language: $('launch-language').value,
    returnUrl: `${location.origin}/console/#player`,
    isStreamer: false,
    demo: $('launch-demo').checked,
  });
  $('launch-link').href = url;
  $('launch-result').hidden = false;
  say(t('launched', { game: game.name, player: $('player-id').value.trim() }));
}

// ---- campaigns ------------------------------------------------------------------------------------

/** The players of a pasted or uploaded list: one per line, or separated by commas, semicolons or spaces; a CSV's first column. */
function parsePlayers(text) {
  const players = [];
  for (const line of text.split(/\r?\n/)) {
    const cells = line.includes(',') || line.includes(';') ? [line.split(/[,;]/)[0]] : line.split(/\s+/);
    for (const cell of cells) {
      const player = cell.trim().replace(/^"|"$/g, '');
      if (player !== '' && !/^player_?id$/i.test(player)) players.push(player);
    }
  }
  return [...new Set(players)];
}

let campaignTimer;

async function startCampaign() {
  const game = games.find((candidate) => String(candidate.gameId) === $('campaign-game').value);
  const players = parsePlayers($('campaign-players').value);
  if (!game || players.length === 0) {
    say(t('noPlayers'), 'error');
    return;
  }
  const campaignId = $('campaign-id').value.trim();
  const started = await api.startCampaign({
    campaignId,
    players,
    providerId: game.providerId,
    gameId: [game.gameId],
    bonusType: 1,
    callAmount: Number($('campaign-cap').value),
    expireAt: `${$('campaign-expire').value.replace('T', ' ')}:00`.slice(0, 19),
    metaData: { spinAmount: Number($('campaign-spins').value), baseBetAmount: Number($('campaign-bet').value) },
  });
  say(t('campaignStarted', { id: started.campaignId, total: started.total }));
  $('campaign-lookup-id').value = started.campaignId;
  await watchCampaign(started.campaignId);
}

async function watchCampaign(campaignId) {
  clearTimeout(campaignTimer);
  const progress = await api.campaign(campaignId);
  renderCampaign(progress);
  if (progress.state === 'running') {
    campaignTimer = setTimeout(() => void act(null, () => watchCampaign(campaignId)), 1000);
  } else {
    say(t('campaignDone', { id: campaignId, registered: progress.registered, refused: progress.refused }));
  }
}

function renderCampaign(progress) {
  const element = $('campaign-progress');
  element.hidden = false;
  const done = progress.registered + progress.refused;
  fill(
    element,
    h('h3', {}, t('campaignTitle', { id: progress.campaignId })),
    h(
      'p',
      { id: 'campaign-state' },
      h('span', { className: `badge badge-${progress.state}` }, t(`campaign_${progress.state}`)),
      ' ',
      t('campaignCounts', {
        registered: progress.registered,
        refused: progress.refused,
        pending: progress.pending,
        total: progress.total,
      }),
    ),
    h('progress', { max: progress.total, value: done, 'aria-label': t('progress') }),
    h('p', { className: 'fine' }, `${when(progress.startedAt)} → ${when(progress.completedAt)}`),
    h('h4', {}, t('refusals')),
    (() => {
      const list = h('table', { className: 'grid', id: 'campaign-refusals' });
      table(
        list,
        [t('playerId'), t('code'), t('message')],
        progress.refusals,
        (refusal) => [refusal.playerId, refusal.code, refusal.message],
        t('noRefusals'),
      );
      return list;
    })(),
  );
}

// ---- wallet health --------------------------------------------------------------------------------

async function loadHealth() {
  const health = await api.walletHealth();
  const view = $('health-view');
  const percent = (rate) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
  fill(
    view,
    h('p', { className: 'fine' }, t('healthOf', { operator: health.operatorId, at: when(health.at) })),
    health.windows.map((window) => {
      const commandTable = h('table', { className: 'grid health', 'data-window': window.window });
      table(
        commandTable,
        [
          t('command'),
          t('callbacks'),
          t('successRate'),
          t('latencyAvg'),
          t('latencyP50'),
          t('latencyP95'),
          t('latencyMax'),
          t('failures'),
        ],
        window.commands,
        (row) => [
          row.command,
          String(row.callbacks),
          percent(row.successRate),
          ...(row.latencyMs === null
            ? ['—', '—', '—', '—']
            : [row.latencyMs.average, row.latencyMs.p50, row.latencyMs.p95, row.latencyMs.max].map((ms) => `${ms} ms`)),
          row.failures.map((failure) => `${failure.reason} × ${failure.count}`).join(', ') || '—',
        ],
        t('nothingFound'),
      );
      const hourly = window.bucketSeconds >= 3600;
      const time = (iso) =>
        new Date(iso).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', hour12: false });
      return h(
        'section',
        { className: 'card health-window' },
        h('h3', {}, t(window.window === 'hour' ? 'lastHour' : 'lastDay')),
        healthChart(window.buckets, {
          title: t(window.window === 'hour' ? 'chartHour' : 'chartDay'),
          label: (bucket) => time(bucket.from),
          tick: (bucket) => {
            const index = window.buckets.indexOf(bucket);
            return index % (hourly ? 4 : 2) === 0 ? time(bucket.from) : '';
          },
          texts: {
            callbacks: t('callbacks'),
            failed: t('failedCallbacks'),
            ok: t('okCallbacks'),
            p95: t('latencyP95'),
          },
        }),
        commandTable,
      );
    }),
  );
  say(t('healthShown'));
}

// ---- dead letters ---------------------------------------------------------------------------------

const letters = { wins: { items: [], cursor: null }, hooks: { items: [], cursor: null } };

async function loadDeadWins(more) {
  await loadPage(letters.wins, more, api.deadWins, 'wins-more');
  renderDeadWins();
  say(t('lettersShown', { count: letters.wins.items.length }));
}

function renderDeadWins(results = new Map()) {
  table(
    $('dead-wins'),
    [
      t('transaction'),
      t('round'),
      t('playerId'),
      t('amount'),
      t('attempts'),
      t('lastError'),
      t('deadLetteredAt'),
      t('nextRedrive'),
      '',
    ],
    letters.wins.items,
    (letter) => {
      const tx = letter.transaction;
      const result = results.get(tx.transactionId);
      return [
        String(tx.transactionId),
        h(
          'button',
          { type: 'button', className: 'link', onclick: () => act(null, () => openRound(tx.roundId)) },
          String(tx.roundId),
        ),
        tx.playerId,
        money(tx.amount, tx.currency),
        String(tx.attempts),
        tx.lastError ?? '—',
        when(letter.deadLetteredAt),
        when(tx.nextRedriveAt),
        redriveCell(result, { 'data-transaction': tx.transactionId }, { 'data-redrive': tx.transactionId }, () =>
          redriveWins([letter]),
        ),
      ];
    },
    t('noLetters'),
  );
}

/** A dead letter's last cell: what its re-drive came to, or the button that re-drives it. */
function redriveCell(result, resultAttributes, buttonAttributes, redrive) {
  return result
    ? h('span', { className: `result result-${result.kind}`, ...resultAttributes }, result.text)
    : h(
        'button',
        { type: 'button', ...buttonAttributes, onclick: (event) => act(event.currentTarget, redrive) },
        t('redrive'),
      );
}

async function redriveWins(chosen) {
  const results = new Map();
  const counts = { applied: 0, already_applied: 0, failed: 0, error: 0 };
  for (const letter of chosen) {
    const id = letter.transaction.transactionId;
    try {
      const answer = await api.redriveWin(id);
      // The row shows the transaction as it stands after the re-drive (attempts, last error, next re-drive).
      letter.transaction = answer.transaction;
      counts[answer.result] += 1;
      results.set(id, { kind: answer.result, text: t(`redrive_${answer.result}`, { reason: answer.reason ?? '' }) });
    } catch (error) {
      counts.error += 1;
      results.set(id, { kind: 'error', text: errorText(error) });
    }
  }
  renderDeadWins(results);
  say(
    t('redriveSummary', {
      applied: counts.applied,
      already: counts.already_applied,
      failed: counts.failed + counts.error,
    }),
    counts.failed + counts.error > 0 ? 'error' : 'ok',
  );
}

async function loadDeadHooks(more) {
  await loadPage(letters.hooks, more, api.deadWebhooks, 'hooks-more');
  renderDeadHooks();
}

function renderDeadHooks(results = new Map()) {
  table(
    $('dead-hooks'),
    [t('event'), t('type'), t('playerId'), t('bonus'), t('attempts'), t('lastError'), t('deadLetteredAt'), ''],
    letters.hooks.items,
    (letter) => {
      const result = results.get(letter.eventId);
      return [
        letter.eventId,
        letter.webhook.type,
        letter.webhook.playerId,
        String(letter.webhook.bonusId),
        String(letter.attempts),
        letter.lastError,
        when(letter.deadLetteredAt),
        redriveCell(result, {}, { 'data-redrive-hook': letter.eventId }, () => redriveHooks([letter])),
      ];
    },
    t('noLetters'),
  );
}

async function redriveHooks(chosen) {
  const results = new Map();
  let sent = 0;
  let failed = 0;
  for (const letter of chosen) {
    try {
      const answer = await api.redriveWebhook(letter.eventId);
      if (answer.result === 'redriven') sent += 1;
      results.set(letter.eventId, { kind: answer.result, text: t(`hook_${answer.result}`) });
    } catch (error) {
      failed += 1;
      results.set(letter.eventId, { kind: 'error', text: errorText(error) });
    }
  }
  renderDeadHooks(results);
  say(t('hookSummary', { sent, failed }), failed > 0 ? 'error' : 'ok');
}

// ---- wiring ---------------------------------------------------------------------------------------

function onSubmit(id, action) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    void act(event.submitter ?? $(id).querySelector('button[type=submit]'), action);
  });
}

function onClick(id, action) {
  $(id).addEventListener('click', (event) => void act(event.currentTarget, action));
}

function defaultExpiry() {
  const tomorrow = new Date(Date.now() + 7 * 86_400_000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T23:59`;
}

function start() {
  setupLanguages();
  applyLanguage();
  $('campaign-expire').value = defaultExpiry();

  $('signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const error = $('signin-error');
    error.hidden = true;
    void (async () => {
      $('signin-button').disabled = true;
      try {
        await signIn($('token').value.trim());
      } catch (failure) {
        error.textContent = t('signinFailed', { error: errorText(failure) });
        error.hidden = false;
        $('token').focus();
      } finally {
        $('signin-button').disabled = false;
      }
    })();
  });
  $('signout').addEventListener('click', signOut);
  window.addEventListener('hashchange', () => api && show(currentView()));

  onSubmit('bonus-filter', () => loadBonuses(false));
  onClick('bonus-more', () => loadBonuses(true));
  onSubmit('bonus-lookup-form', () => {
    $('bonus-detail').hidden = true;
    return openBonus($('bonus-lookup').value.trim());
  });
  onSubmit('round-lookup-form', () => {
    $('round-detail').hidden = true;
    return openRound($('round-lookup').value.trim());
  });
  onSubmit('campaign-form', startCampaign);
  onSubmit('campaign-lookup', () => watchCampaign($('campaign-lookup-id').value.trim()));
  $('campaign-file').addEventListener('change', () => {
    const file = $('campaign-file').files?.[0];
    if (!file) return;
    void act(null, async () => {
      const players = parsePlayers(await file.text());
      $('campaign-players').value = players.join('\n');
      say(t('playersRead', { count: players.length, file: file.name }));
    });
  });
  onSubmit('player-form', loadPlayer);
  onSubmit('launch-form', launch);
  onClick('health-refresh', loadHealth);
  onClick('wins-refresh', () => loadDeadWins(false));
  onClick('wins-more', () => loadDeadWins(true));
  onClick('wins-redrive-all', () => redriveWins(letters.wins.items));
  onClick('hooks-refresh', () => loadDeadHooks(false));
  onClick('hooks-more', () => loadDeadHooks(true));
  onClick('hooks-redrive-all', () => redriveHooks(letters.hooks.items));

  const saved = sessionStorage.getItem(TOKEN_KEY);
  const ready = () => ($('signin').dataset['state'] = 'ready');
  if (saved) {
    signIn(saved)
      .catch(() => sessionStorage.removeItem(TOKEN_KEY))
      .finally(ready);
  } else {
    ready();
    $('token').focus();
  }
}

start();
