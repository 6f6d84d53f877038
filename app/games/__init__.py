"""Games: the record and its one write path (records), hands saved, replaced and removed, imports,
reads, the game list, share and handover links, idempotent retries."""
