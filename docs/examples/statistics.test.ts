// docs/statistics.md over real HTTP: the answers the page shows are these.
import { memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimatesByStatus, tickets } from './statistics.js';

let target: HttpSuiteTarget;
beforeAll(async () => {
  target = await serveHttp(express().use('/api', resourcery({ resources: [tickets], store: memoryStore() })));
  for (const ticket of [
    { title: 'Crash', status: 'done', priority: 1, estimate: '8.00', dueDate: '2024-05-01' },
    { title: 'Typo', status: 'done', priority: 3, estimate: '4.50' },
    { title: 'Slow', status: 'in_progress', priority: 2, estimate: '0.05', dueDate: '2024-06-30' },
    { title: 'Docs', status: 'open', priority: 3 },
  ]) {
    const reply = await fetch(`${target.baseUrl}/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ticket),
    });
    expect(reply.status).toBe(200);
  }
});
afterAll(() => target.close());

const stats = async (query: string) => {
  const reply = await fetch(`${target.baseUrl}/tickets/stats?${query}`);
  return { status: reply.status, body: await reply.json() };
};

describe('statistics (docs/statistics.md)', () => {
  it('answers one entry per group, in order, with exact sums', async () => {
    expect(await stats('group=status&sum=estimate')).toEqual({
      status: 200,
      body: {
        stats: [
          { status: 'done', count: 2, sum: { estimate: '12.50' } },
          { status: 'in_progress', count: 1, sum: { estimate: '0.05' } },
          { status: 'open', count: 1, sum: { estimate: null } },
        ],
      },
    });
    expect((await stats('filter[priority][gte]=2&max=dueDate,estimate')).body).toEqual({
      stats: [{ count: 3, max: { dueDate: '2024-06-30', estimate: '4.50' } }],
    });
  });

  it('refuses what it does not take, naming the parameter', async () => {
    const refused = await stats('group=title');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      'group: "title" is not an attribute that can be used here (allowed: status, priority)',
    );
    expect((await stats('group=status&sort=status')).body.detail).toMatch(/^sort is not accepted/);
  });

  it('is typed in the client', async () => {
    expect(await estimatesByStatus(target.baseUrl)).toEqual([
      'done: 2 (12.50)',
      'in_progress: 1 (0.05)',
      'open: 1 (no estimate)',
    ]);
  });
});
