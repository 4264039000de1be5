package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// FileError names the file a policy description came from.
type FileError struct {
	File string
	Err  error
}

// Error names the file and the problem.
func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns the underlying error (a *cupel.ValidationError for
// invalid values).
func (e *FileError) Unwrap() error { return e.Err }

// Decode decodes the policy description in data, read from the file named
// name: TOML if the name ends in ".toml", JSON if it ends in ".json" (in
// any case). Both are read strictly: unknown keys are errors, and so is
// trailing data after a JSON object. Decode then checks the spec as
// [Spec.Build] does, all but the clock a decay scorer may need, so that
// Build can fail afterwards only for want of [WithClock]. Every error is a
// [*FileError] naming the file, wrapping cupel.ErrInvalidConfig, and a
// [*cupel.ValidationError] naming the field and the value where one is at
// fault.
func Decode(name string, data []byte) (Spec, error) {
	fail := func(err error) (Spec, error) {
		return Spec{}, &FileError{File: name, Err: err}
	}
	var spec Spec
	switch ext := filepath.Ext(name); {
	case enginehook.EqualASCIIFold(ext, ".json"):
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&spec); err != nil {
			return fail(fmt.Errorf("%w: %w", cupel.ErrInvalidConfig, err))
		}
		if dec.More() {
			return fail(fmt.Errorf("%w: trailing data after the policy object", cupel.ErrInvalidConfig))
		}
	case enginehook.EqualASCIIFold(ext, ".toml"):
		md, err := toml.Decode(string(data), &spec)
		if err != nil {
			return fail(fmt.Errorf("%w: %w", cupel.ErrInvalidConfig, err))
		}
		if undecoded := md.Undecoded(); len(undecoded) > 0 {
			keys := make([]string, len(undecoded))
			for i, k := range undecoded {
				keys[i] = k.String()
			}
			return fail(fmt.Errorf("%w: unknown keys: %s", cupel.ErrInvalidConfig, strings.Join(keys, ", ")))
		}
	default:
		return fail(fmt.Errorf("%w: unknown policy file type %q (want .json or .toml)", cupel.ErrInvalidConfig, ext))
	}
	if _, err := spec.build(&buildOptions{check: true}); err != nil {
		return fail(err)
	}
	return spec, nil
}
