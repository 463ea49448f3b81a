"""A conversation with memory: the loop the chat CLI and the TUI run.

Each turn recalls what is relevant, asks the model for a reply with that context (streamed),
extracts durable facts about the user from their message and remembers them, and keeps the
session's turns in the short-term ring buffer. Implicit feedback: a memory recalled in a turn and
not corrected within the next two turns gains confidence (+0.02); one corrected in those turns
loses some (−0.1).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from localmind import validation
from localmind.chat.query import dialogue_query
from localmind.errors import ForgottenEarlier
from localmind.lifecycle import Decision, Outcome
from localmind.llm.base import LLM, LLMError, Message
from localmind.memory import Memory
from localmind.prompts import render
from localmind.records import MemoryRecord, MemoryType, RecallResult
from localmind.secrets_check import without_secrets

EXTRACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "content": {"type": "string"},
                    "type": {"type": "string", "enum": ["semantic", "episodic"]},
                    "importance": {"type": "number", "minimum": 0, "maximum": 1},
                },
                "required": ["content"],
            },
        }
    },
    "required": ["facts"],
}
MAX_FACTS_PER_TURN = 8
HISTORY_TURNS = 6  # earlier exchanges sent with each request
#: What the model reads in place of a sentence of the person's that looks like a secret.
WITHHELD_FOR_MODEL = (
    "[withheld: the user said something secret here (a password, PIN, key or code); "
    "localmind keeps it and does not show it to you]"
)
#: What the person is told when their message held one (the CLI chat and the app say it).
WITHHELD_NOTE = (
    "Your message looks like it holds a secret (a password, PIN, key or code): the model was "
    "not sent it (it read “[withheld]” in its place); it is kept in your memory, never sent to "
    "an assistant."
)


@dataclass
class Turn:
    user: str
    reply: str
    recalled: list[RecallResult]
    remembered: list[Outcome]
    offline: str = ""  # why the model could not answer, when it could not
    rewarded: list[str] = field(default_factory=list)  # ids that gained implicit confidence
    penalised: list[str] = field(default_factory=list)  # ids corrected after being recalled
    # the message as the model read it: ``user`` with each secret-looking sentence withheld
    to_model: str = ""
    withheld: tuple[str, ...] = ()  # the sentences withheld from the model
    #: facts of the message the person forgot earlier, told again: not kept (as ``add`` and
    #: ``import`` refuse them), and said so (polish15: the chat dropped them without a word)
    not_kept: tuple[ForgottenFact, ...] = ()

    def __post_init__(self) -> None:
        self.to_model = self.to_model or self.user


@dataclass(frozen=True)
class ForgottenFact:
    """A fact of a chat message that the person forgot earlier: not brought back."""

    text: str
    forgotten_at: float  # when it was forgotten
    secret: bool = False  # a sentence withheld from the model: shown masked

    def describe(self) -> str:
        day = datetime.fromtimestamp(self.forgotten_at).strftime("%Y-%m-%d")
        text = "a secret-looking sentence" if self.secret else f"“{self.text}”"
        return (
            f"not kept: {text} was forgotten earlier (on {day}); keep it again with "
            "localmind add --allow-forgotten"
        )


@dataclass
class _Watch:
    memory_id: str
    turns_left: int


class Session:
    def __init__(
        self,
        memory: Memory,
        llm: LLM | None,
        *,
        recall_limit: int = 5,
        extract: bool = True,
    ) -> None:
        self.memory = memory
        self.llm = llm
        self.recall_limit = recall_limit
        self.extract = extract
        self.turns: list[Turn] = []
        self._watching: list[_Watch] = []

    # --- the turn -----------------------------------------------------------------------------

    def turn(self, message: str, on_token: Callable[[str], None] | None = None) -> Turn:
        message = validation.content(message, self.memory.settings.limits, what="The message")
        earlier = [text for turn in self.turns[-HISTORY_TURNS:] for text in (turn.user, turn.reply)]
        query = dialogue_query(
            earlier, message, max_chars=self.memory.settings.limits.max_content_chars
        )
        recalled = [
            r
            for r in self.memory.recall(query, self.recall_limit)
            if r.memory.type is not MemoryType.SHORT_TERM
        ]
        self.memory.remember(message, type=MemoryType.SHORT_TERM)
        # The model may not run on this laptop (OLLAMA_HOST, an OpenAI-compatible server): a
        # sentence that looks like a secret is never sent to it, now or in later turns'
        # history. It is remembered as the person said it instead of through the model.
        told = without_secrets(message, WITHHELD_FOR_MODEL)
        reply, offline = self._reply(told.shown, recalled, on_token)
        # (kept even when the model is offline: no model is needed to keep them)
        not_kept: list[ForgottenFact] = []
        remembered = self._remember_secrets(told.secrets, not_kept) if self.extract else []
        if self.extract and not offline:
            remembered += self._remember_facts(told.shown, not_kept)
        corrected = {
            o.related.id
            for o in remembered
            if o.decision is Decision.OVERWRITTEN and o.related is not None
        }
        rewarded, penalised = self._settle_implicit_feedback(corrected)
        self._watch(recalled, corrected)
        # The model's words join the session's memory when they are storable text (a reply of
        # blanks or with a NUL is still shown, not kept).
        with contextlib.suppress(validation.InvalidInput):
            self.memory.remember(
                reply[: self.memory.settings.limits.max_content_chars], type=MemoryType.SHORT_TERM
            )
        turn = Turn(
            message,
            reply,
            recalled,
            remembered,
            offline,
            rewarded,
            penalised,
            told.shown,
            told.secrets,
            tuple(not_kept),
        )
        self.turns.append(turn)
        return turn

    def correct(self, memory_id: str, new_content: str) -> MemoryRecord:
        """The person corrects a memory (✏️): explicit feedback, and no implicit reward for it."""
        record = self.memory.feedback(memory_id, "correct", new_content)
        self._watching = [w for w in self._watching if w.memory_id != memory_id]
        return record

    # --- parts --------------------------------------------------------------------------------

    def _reply(
        self,
        message: str,
        recalled: Sequence[RecallResult],
        on_token: Callable[[str], None] | None,
    ) -> tuple[str, str]:
        if self.llm is None:
            return "", "No language model is configured."
        if not self.llm.available():
            return "", self.llm.status or self.llm.how_to_start()
        pieces: list[str] = []
        try:
            for piece in self.llm.stream(self._messages(message, recalled)):
                pieces.append(piece)
                if on_token:
                    on_token(piece)
        except LLMError as error:
            return "".join(pieces), str(error)
        return "".join(pieces), ""

    def _messages(self, message: str, recalled: Sequence[RecallResult]) -> list[Message]:
        context = self.memory.context_of(recalled, asked=message)
        system = render("chat_system", context=context)
        messages: list[Message] = [{"role": "system", "content": system.strip()}]
        for earlier in self.turns[-HISTORY_TURNS:]:
            messages.append({"role": "user", "content": earlier.to_model})
            if earlier.reply:
                messages.append({"role": "assistant", "content": earlier.reply})
        messages.append({"role": "user", "content": message})
        return messages

    def _remember_secrets(
        self, sentences: Sequence[str], not_kept: list[ForgottenFact]
    ) -> list[Outcome]:
        """The sentences withheld from the model, kept as the person said them (the model
        cannot extract what it never read); each is marked secret when it is written. One the
        person forgot earlier is not kept, and noted in ``not_kept``."""
        outcomes = []
        for sentence in sentences:
            try:
                outcomes.append(
                    self.memory.remember_explained(
                        sentence, type="semantic", metadata={"source": "chat"}, source="chat"
                    )
                )
            except ForgottenEarlier as refused:
                not_kept.append(ForgottenFact(sentence, refused.at, secret=True))
            except validation.InvalidInput:
                continue
        return outcomes

    def _remember_facts(self, message: str, not_kept: list[ForgottenFact]) -> list[Outcome]:
        assert self.llm is not None
        try:
            answer = self.llm.json(
                [{"role": "user", "content": render("extract", message=message)}],
                EXTRACTION_SCHEMA,
            )
        except LLMError:
            return []
        facts = answer.get("facts")
        if not isinstance(facts, list):
            return []
        outcomes = []
        for fact in facts[:MAX_FACTS_PER_TURN]:
            if not isinstance(fact, dict):
                continue
            kind = "episodic" if fact.get("type") == "episodic" else "semantic"
            importance = fact.get("importance")
            if not isinstance(importance, (int, float)) or not 0 <= importance <= 1:
                importance = None
            try:
                outcomes.append(
                    self.memory.remember_explained(
                        fact.get("content"),  # type: ignore[arg-type]  # validated inside
                        type=kind,
                        importance=importance,
                        metadata={"source": "chat"},
                        source="chat",
                    )
                )
            except ForgottenEarlier as refused:
                # told again after the person forgot it: not brought back, but said (as add
                # and import say it), not dropped without a word
                not_kept.append(ForgottenFact(str(fact.get("content")), refused.at))
            except validation.InvalidInput:
                continue  # an empty or oversized "fact" from the model is dropped
        return outcomes

    def _settle_implicit_feedback(self, corrected: set[str]) -> tuple[list[str], list[str]]:
        config = self.memory.settings.lifecycle
        rewarded, penalised, still = [], [], []
        for watch in self._watching:
            if watch.memory_id in corrected:
                self._adjust(watch.memory_id, config.implicit_penalty, "implicit: corrected")
                penalised.append(watch.memory_id)
                continue
            watch.turns_left -= 1
            if watch.turns_left == 0:
                self._adjust(
                    watch.memory_id, config.implicit_reward, "implicit: not corrected", used=True
                )
                rewarded.append(watch.memory_id)
            else:
                still.append(watch)
        self._watching = still
        return rewarded, penalised

    def _watch(self, recalled: Sequence[RecallResult], corrected: set[str]) -> None:
        watched = {w.memory_id for w in self._watching}
        window = self.memory.settings.lifecycle.implicit_window_turns
        for result in recalled:
            key = result.memory.id
            if key not in watched and key not in corrected:
                self._watching.append(_Watch(key, window))

    def _adjust(self, memory_id: str, delta: float, reason: str, *, used: bool = False) -> None:
        # A memory forgotten or replaced meanwhile has nothing to credit.
        with contextlib.suppress(validation.InvalidInput, KeyError):
            self.memory.nudge_confidence(memory_id, delta, reason, used=used)
