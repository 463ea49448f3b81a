"""Tunable numbers, each with the default the design settled on."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """The final ranking ``confidence × relevance × (1 + w_imp·importance + w_rec·recency +
    w_freq·frequency)``: relevance first, the rest a bounded tie-breaker. The first versions
    added the factors (``0.7·similarity + 0.1·importance + ...``); with a calibrated relevance,
    whose values for a right answer can be 0.2 as well as 0.9, even 0.02 of added recency cost
    0.06 Recall@5 on the personal set, while as a multiplier it costs nothing measurable
    (docs/benchmarks.md). Any weights may be given."""

    importance: float = 0.1
    recency: float = 0.1
    frequency: float = 0.1
    # recency = 0.5 ** (days since the memory was made or last changed / half-life)
    recency_half_life_days: float = 90.0
    # uses at which the frequency factor reaches 1 (log-scaled below that)
    frequency_saturation: int = 20


@dataclass(frozen=True, slots=True)
class DecayConfig:
    """Importance decays as ``importance × (1 − daily_rate)^(days − grace_period_days)`` once a
    memory has gone untouched for longer than the grace period. Below ``floor`` a memory is a
    candidate for archival (maintenance)."""

    daily_rate: float = 0.01
    grace_period_days: float = 7.0
    floor: float = 0.05


@dataclass(frozen=True, slots=True)
class FusionConfig:
    """The calibrated score fusion of the vector and keyword searches
    (``localmind.ranking.relevance``): a logistic model of relevance over the cosine, its gap to
    the query's best cosine, BM25 relative to the query's best and log(1 + BM25) (and, for a
    memory in the other script than the query, the cosine again). Fitted on
    every dev set at once — MADial-Bench en and zh, LoCoMo dev, the personal sets — by
    ``python -m bench fit`` (docs/benchmarks.md); the numbers below are its output.

    ``min_relevance``: recall returns nothing when the query's best candidate is less likely
    than this to be relevant (``min_relevance_unmatched`` when no candidate holds a word of the
    query), so that a query with nothing relevant returns nothing; otherwise it drops only
    candidates below ``relative_relevance`` × the best one's relevance or ``min_relevance_kept``
    (``threshold=0`` keeps everything). Chosen on the dev sets (docs/benchmarks.md)."""

    bias: float = -3.632
    cosine: float = 2.419
    cosine_gap: float = 1.969
    keyword: float = 0.605
    keyword_strength: float = 0.181
    coverage: float = 2.625
    # added to the logit of a memory made in the period the query names ("in March", "去年")
    period: float = 3.075
    # the cosine gap again, scaled by how little the query's words are found: when no memory
    # holds its terms (a paraphrase, another language), meaning has to decide
    cosine_gap_unmatched: float = 4.676
    # the cosine again for a memory written in another script than the query (Chinese for an
    # English question, or the reverse): cosines across languages run lower, and the keywords
    # that lift a same-language memory cannot reach it, so for that pair meaning decides more
    # (in full for the best memory in that script, less below it: ranking.across_scripts)
    other_script_cosine: float = 4.0
    # × the relevance of the most relevant memory told together with it (up to three turns away
    # in one conversation imported at once): the answer turn follows the question's turn, and
    # often shares no word with the question (docs/design.md, "Recall, round 5")
    context: float = 3.0
    # polish15 raised these to 0.04 / 0.05 (``python -m bench.floor``: fewer answers to
    # unrelated questions on a new user's small store); the lead took it back: on the full
    # personal sets the unrelated questions were answered as often, while real questions were
    # answered with nothing more often (personal 2 → 3, personal5 1 → 2, held-out personal4
    # 0 → 2 of 181; docs/benchmarks.md, session 14)
    min_relevance: float = 0.025
    # the bar when no memory holds any word of the query ("hello there"): only meaning connects
    # it then, and the bundled model's cosines for unrelated short texts reach 0.25
    min_relevance_unmatched: float = 0.048
    # Once the query's best candidate clears its bar, the others are kept down to this share
    # of the best one's relevance, and never below ``min_relevance_kept``: a right answer the
    # bundled model cannot tell from filler (a paraphrase) often scores under the bar itself,
    # and cutting there cost up to 0.07 of R@10; at these two values it costs none on any dev set.
    relative_relevance: float = 0.02
    min_relevance_kept: float = 0.005
    # candidates fetched from each list, per result asked for (at least min_candidates)
    candidates_per_result: int = 5
    min_candidates: int = 50
    # a candidate that sets the one-value attribute a question asks about ("my partner" /
    # "I'm engaged to Mei") is spared the relevance bar (recall._asked_attribute)
    keep_asked_attribute: bool = True


@dataclass(frozen=True, slots=True)
class Limits:
    max_content_chars: int = 8_000
    max_recall_limit: int = 1_000
    short_term_capacity: int = 20
    max_metadata_bytes: int = 16_000
    # containers within containers: far below what any JSON parser on the way (an export, a
    # sync segment, where an event wraps the metadata two levels deeper) could fail on
    max_metadata_depth: int = 20


@dataclass(frozen=True, slots=True)
class LifecycleConfig:
    """What remember() does with a new memory close to existing ones, by cosine similarity
    with the default embedder (USE-m3) and the rules of docs/design.md, "What remember()
    decides" (``python -m bench hygiene`` scores them):

    - below ``conflict_threshold`` (0.35: every contradiction of tests/data/memory_pairs.jsonl,
      ``python -m bench.calibrate``) nothing is compared: the memory is inserted;
    - at or above ``merge_threshold`` it merges into a neighbour when the guard
      (:mod:`localmind.sameness`) finds the same people, negation, numbers, names, roles and
      content words. The guard carries the precision, so the threshold can be far below the
      0.95 that cosine alone needed;
    - a neighbour that plausibly contradicts it (:mod:`localmind.suspicion`) goes to the LLM,
      or, with none, to the conflicts queue; anything else is inserted;
    - with an LLM, the nearest neighbour at or above ``ask_threshold`` that the guard finds
      worded differently (not different) is put to it: it may be a restatement.
    """

    merge_threshold: float = 0.55
    conflict_threshold: float = 0.35
    ask_threshold: float = 0.6
    merge_boost: float = 0.05
    # feedback
    confirm_delta: float = 0.1
    deny_delta: float = -0.2
    corrected_confidence: float = 0.9
    implicit_reward: float = 0.02
    implicit_penalty: float = -0.1
    implicit_window_turns: int = 2


@dataclass(frozen=True, slots=True)
class ProfileConfig:
    """The user profile and the context block (token counts:
    ``localmind.token_budget.estimate``)."""

    budget_tokens: int = 200
    context_memory_tokens: int = 300
    # rebuilt when at least this many memories changed since the last build
    rebuild_after_changes: int = 5
    # how many of the highest-value memories a full build reads
    source_limit: int = 40
    # without a model, the profile is this many of the most valuable settled facts (not every
    # memory joined by ";": a small store would be given twice, once here and once as context)
    profile_facts: int = 5
    # the context block gives a recalled memory only when it is at least this share of the best
    # one's relevance (recall's own bar keeps a tail a person scans; in a prompt it is filler)
    context_relative_relevance: float = 0.2
    # ... and at most one memory for each this much of the best one's relevance (at least one):
    # when even the best is barely relevant (0.05: "Can you suggest a dinner recipe?" of a store
    # with no recipe), its tail is filler too, however close to it (review10 F4, F10)
    context_relevance_per_memory: float = 0.015


@dataclass(frozen=True, slots=True)
class GovernanceConfig:
    """Keeping a store healthy for months. Capacity is per namespace; eviction archives the
    lowest ``confidence × (access_count + 1)`` first and never a pinned memory (nor, for an
    assistant's write over MCP, a memory the person wrote). ``capacity``,
    ``retention_days`` and ``mcp_writes_per_minute`` can be changed per store without code
    (``localmind config``, kept in the store's meta: ``localmind.preferences``)."""

    capacity: int | None = 500  # None: unlimited (benchmarks)
    maintenance_interval_hours: float = 24.0
    # confidence decays by this much per day for memories that are rarely used (no access for
    # ``rarely_used_days``) or already doubtful (below ``low_confidence``)
    confidence_daily_decay: float = 0.01
    rarely_used_days: float = 30.0
    low_confidence: float = 0.3
    # archived (status expired) memories are purged after this many days; None: never (they
    # stay listable and restorable until the person purges them: maintain --purge-archived)
    retention_days: float | None = None
    # writes an MCP client may make in any 60 s (a prompt-injected flood stops here); None: any
    mcp_writes_per_minute: int | None = 60
    # maintenance refuses to run when the wall clock moved further than this since the last
    # run (a BIOS year typo, a VM restored with a stale clock, a dead RTC battery): idle time
    # measured by a wrong clock would archive, and sync would spread it (trust_clock overrides)
    max_clock_jump_days: float = 100.0
    # recall latencies kept for the p50/p95 in stats
    latency_samples: int = 1_000


@dataclass(frozen=True, slots=True)
class Settings:
    ranking: RankingWeights = field(default_factory=RankingWeights)
    decay: DecayConfig = field(default_factory=DecayConfig)
    fusion: FusionConfig = field(default_factory=FusionConfig)
    limits: Limits = field(default_factory=Limits)
    lifecycle: LifecycleConfig = field(default_factory=LifecycleConfig)
    profile: ProfileConfig = field(default_factory=ProfileConfig)
    governance: GovernanceConfig = field(default_factory=GovernanceConfig)
    default_importance: float = 0.5
    default_confidence: float = 0.8
