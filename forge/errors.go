package forge

import (
	"errors"
	"fmt"
)

// Error categories. Every error that crosses a package boundary in Hearth
// wraps exactly one of them, so callers branch with errors.Is and httpapi maps
// each category to one HTTP status in one place.
var (
	// ErrNotFound: the referenced entity does not exist (or is not visible to
	// the actor, which callers must not be able to tell apart). HTTP 404.
	ErrNotFound = errors.New("not found")
	// ErrInvalid: the input breaks a validation rule. HTTP 422 by default;
	// handlers choose 400 where Forgejo does.
	ErrInvalid = errors.New("invalid")
	// ErrConflict: the write would break a uniqueness rule. HTTP 409 or 422.
	ErrConflict = errors.New("conflict")
	// ErrForbidden: the actor is known but may not do this. HTTP 403.
	ErrForbidden = errors.New("forbidden")
	// ErrUnauthenticated: credentials are missing or wrong. HTTP 401.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrPrecondition: the state of the system forbids the change (for
	// example removing the last administrator). HTTP 400 or 422.
	ErrPrecondition = errors.New("precondition failed")
	// ErrArchived: the target is archived and refuses writes. HTTP 423.
	ErrArchived = errors.New("archived")
)

// Error is an error in one category with a message meant for the API client.
// Its Error method returns the message alone: the category is for errors.Is,
// the message is what Forgejo would show.
type Error struct {
	Kind    error
	Message string
	// Err is an optional underlying cause, kept for errors.Is/As and logs.
	Err error
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is e's category.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an error of category kind whose message is the formatted
// text. A %w verb in format also makes the wrapped error reachable through
// errors.Is/As.
func Errorf(kind error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Kind: kind, Message: err.Error(), Err: errors.Unwrap(err)}
}

// KindOf returns the category of err, or nil if err is in none.
func KindOf(err error) error {
	for _, k := range []error{ErrNotFound, ErrInvalid, ErrConflict, ErrForbidden,
		ErrUnauthenticated, ErrPrecondition, ErrArchived} {
		if errors.Is(err, k) {
			return k
		}
	}
	return nil
}

// Reasonf is Errorf with a reason: a sentinel below the category that callers
// may test with errors.Is when one category covers cases the API answers
// differently (auth.ErrPasswordPolicy is ErrInvalid, but Forgejo answers 400
// where other invalid input gets 422). The message does not include the
// reason's text.
func Reasonf(kind, reason error, format string, args ...any) error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Err: reason}
}
