package cupel

import (
	"context"
	"log/slog"
	"unicode/utf8"
)

// NewSlogObserver returns an observer for [NewDiagnosticTraceCollector]
// (the optional observer callback of spec chapter "TraceCollector") that
// writes each event it is handed to logger as one structured record, as the
// event is recorded. A nil logger means slog.Default().
//
// Stage events are logged at level with the message "cupel stage" and the
// attributes of spec chapter "Events": stage, duration_ms, item_count, and
// message when the event has one.
//
// Item events (handed over only at [DetailItem]) are logged one step below
// level (level-4: Debug when level is Info) with the message "cupel item"
// and the attributes stage, an item group (content, tokens, kind: the
// data model's names; content is cut to 64 bytes, "…" marking the cut),
// score, and the reason in the wire format's shape (spec chapter "Exclusion
// Reasons"): reason holds the variant's name and the variant's fields follow
// it under their spec names (item_tokens, available_tokens,
// deduplicated_against, tokens, displaced_by, kind, cap, count, ...); an
// exclusion of a variant this package does not know carries its raw fields
// as fields. message is added when the event has one.
//
// Records below the logger's level cost one Enabled call; nothing is built
// for them.
func NewSlogObserver(logger *slog.Logger, level slog.Level) func(TraceEvent) {
	if logger == nil {
		logger = slog.Default()
	}
	return func(e TraceEvent) {
		ctx := context.Background()
		if e.Item == nil {
			if !logger.Enabled(ctx, level) {
				return
			}
			attrs := make([]slog.Attr, 0, 4)
			attrs = append(attrs,
				slog.String("stage", string(e.Stage)),
				slog.Float64("duration_ms", e.DurationMs),
				slog.Int("item_count", e.ItemCount))
			if e.Message != "" {
				attrs = append(attrs, slog.String("message", e.Message))
			}
			logger.LogAttrs(ctx, level, "cupel stage", attrs...)
			return
		}
		itemLevel := level - 4
		if !logger.Enabled(ctx, itemLevel) {
			return
		}
		attrs := make([]slog.Attr, 0, 8)
		attrs = append(attrs,
			slog.String("stage", string(e.Stage)),
			slog.Group("item",
				slog.String("content", cut(e.Item.content, 64)),
				slog.Int("tokens", e.Item.tokens),
				slog.String("kind", string(e.Item.kind))),
			slog.Float64("score", e.Score))
		attrs = appendReasonAttrs(attrs, e)
		if e.Message != "" {
			attrs = append(attrs, slog.String("message", e.Message))
		}
		logger.LogAttrs(ctx, itemLevel, "cupel item", attrs...)
	}
}

// appendReasonAttrs appends the reason of item event e: reason=<variant>
// followed by the variant's fields.
func appendReasonAttrs(attrs []slog.Attr, e TraceEvent) []slog.Attr {
	r := e.Exclusion
	if r.Variant == "" {
		if e.Inclusion != "" {
			attrs = append(attrs, slog.String("reason", string(e.Inclusion)))
		}
		return attrs
	}
	attrs = append(attrs, slog.String("reason", string(r.Variant)))
	fields, known := exclusionFields[r.Variant]
	if !known {
		if f := r.UnknownFields(); f != "" {
			attrs = append(attrs, slog.String("fields", f))
		}
		return attrs
	}
	for _, f := range fields {
		switch v := r.exclusionField(f).(type) {
		case int:
			attrs = append(attrs, slog.Int(f, v))
		case jsonFloat:
			attrs = append(attrs, slog.Float64(f, float64(v)))
		case string:
			attrs = append(attrs, slog.String(f, v))
		default:
			attrs = append(attrs, slog.Any(f, v))
		}
	}
	return attrs
}

// cut returns s cut to at most n bytes at a rune boundary, "…" marking a cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
