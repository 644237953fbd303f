#!/bin/sh
# The analysts' daily job on a machine without Kubernetes (the same steps as the CronJob
# `reelstream-daily-reports`, k8s/analytics/daily-reports-cronjob.yaml). Run once a day after
# yesterday (UTC date) has ended in every operator's time zone, e.g. from crontab:
#   30 12 * * * REPORTS_DIR=/var/lib/reelstream/reports /opt/reelstream/scripts/daily-reports.sh >>/var/log/reelstream-reports.log 2>&1
# It writes, for yesterday's UTC date D:
#   $REPORTS_DIR/D/rounds-<log position>.csv, transactions-<log position>.csv
#       the rows closed since the last run (before today's midnight), never a row twice: the
#       checkpoints in $REPORTS_DIR/checkpoints/ record how far each export got;
#   $REPORTS_DIR/D/<report>.csv, one per report of `reelstream replay`, D's whole day in each
#       operator's zone (replaced whole when run again).
# It only reads the event log: EVENT_STORE_URL (or DATA_DIR's data file) and OPERATORS_FILE (or
# OPERATORS_JSON), as the apps read them; give the event store a read-only user (docs/analyst-guide.md).
set -eu

: "${REPORTS_DIR:?set REPORTS_DIR, the directory the dated report folders go in}"
# The bundled CLI (`npm run build`), or apps/reelstream-cli/bin/reelstream.mjs in a checkout.
REELSTREAM_CLI=${REELSTREAM_CLI:-/opt/reelstream/dist/apps/reelstream-cli/main.js}

for kind in rounds transactions; do
  node "$REELSTREAM_CLI" export "$kind" --to today --checkpoint "$REPORTS_DIR/checkpoints/$kind.json" \
    --out "$REPORTS_DIR/{yesterday}/" --no-progress
done
node "$REELSTREAM_CLI" replay --from yesterday --to today --format csv --out-dir "$REPORTS_DIR/{yesterday}" \
  --no-progress
