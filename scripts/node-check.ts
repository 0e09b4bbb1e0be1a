// Every npm script starts here: it proves the script runs on the Node 24 that package.json pins
// (npm puts node_modules/.bin first on PATH), not on an older system Node.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(
    `frontdoor needs Node 24, but this script runs on Node ${process.version} (${process.execPath}).\n` +
      "Run it through npm (npm start, npm test, npm run build) after `npm install`: npm then uses the Node 24 from node_modules/.bin.",
  );
  process.exit(1);
}
