// The all-in-one platform process lands with issue 7; until then `npm start` says so.
process.stdout.write('reelstream: the all-in-one platform is not built yet (see issue 7). Run `npm test` meanwhile.\n');
