// Baseline for bench:api: a bare Express route answering the same JSON as the real status route.
const express = require('express');

const body = JSON.parse(process.env.BENCH_BODY);
const app = express();
app.get('/v1/research/:id/status', (_req, res) => res.json(body));
const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
