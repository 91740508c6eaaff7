"""Scale corpora for the search benchmarks (``manage.py load_corpus``, ``manage.py bench_search``).

- :mod:`bench.corpus.generator` — pure: a deterministic, realistic corpus (several tenants, one large; deep
  scope trees; user, team and org memories; varied combinatorial text about people, projects, decisions,
  incidents, preferences, numbers and dates; the entities and typed links each text states) and the benchmark
  queries (keyword, paraphrase, relational, names).
- :mod:`bench.corpus_loader` — the bulk loader: embeddings in length-sorted batches cached on disk by text
  hash (``$ORGMEMORY_DATA_DIR/corpus/``), ``COPY`` into the memory, chunk and graph tables, the BM25 statistics
  left to the statement-level triggers and checked by a recomputation, the HNSW index built after the load.
"""
