// The heavy workspace's members, as a process of their own: each loops on a year of insights
// or on exports (half each), reading every answer whole, until SIGTERM; then prints what they
// were answered (JSON) and exits. Run at the lowest priority by index.mjs: on a machine of two
// cores they share the load's core with the database, and a team's browsers and scripts are
// not on the database's machine.
const [url, members] = [process.argv[2], Number(process.argv[3])];
const memberKey = (i) => `svc_key_${'m'.repeat(41)}${String(i).padStart(2, '0')}`;

let running = true;
const counts = { ok: 0, refused: 0, other: 0 };
const loops = Array.from({ length: members }, async (_, i) => {
  const target = i % 2 === 0 ? '/api/workspace/insights?days=366' : '/api/workspace/export';
  while (running) {
    const answer = await fetch(`${url}${target}`, { headers: { authorization: `Bearer ${memberKey(i)}` } });
    await answer.arrayBuffer();
    if (answer.status === 200) counts.ok++;
    else if (answer.status === 429) counts.refused++;
    else counts.other++;
    // A refused member tries again a moment later, as a script in a loop would.
    if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
process.on('SIGTERM', async () => {
  running = false;
  await Promise.all(loops);
  process.stdout.write(JSON.stringify(counts));
  process.exit(0);
});
