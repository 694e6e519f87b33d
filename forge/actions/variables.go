package actions

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// ErrVariableNotFound is Forgejo's message for a variable that does not
// exist.
var ErrVariableNotFound = forge.Errorf(forge.ErrNotFound, "variable not found")

// variableExists is Forgejo's 409 for creating a variable whose name is
// taken (the name as the request gave it).
func variableExists(name string) error {
	return forge.Errorf(forge.ErrConflict, "variable name %s already exists", name)
}

// CreateVariable creates the variable name of t with value. Errors:
// ErrInvalidName, ErrCIName, ErrDataTooLong (forge.ErrInvalid);
// forge.ErrConflict if t has a variable of that name (ignoring case); the
// access errors of the level.
func (s *Service) CreateVariable(ctx context.Context, actor forge.Actor, t Target, name, value string) (*Variable, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return nil, err
	}
	if err := s.checkVariable(t, name, value); err != nil {
		return nil, err
	}
	v := &Variable{Scope: r.scope, Name: CanonicalName(name), Data: NormalizeData(value), Created: s.clock.Now()}
	err = s.store.Update(ctx, func(tx Tx) error {
		err := tx.CreateVariable(ctx, v)
		if errors.Is(err, forge.ErrConflict) {
			return variableExists(name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (s *Service) checkVariable(t Target, name, value string) error {
	if t.Level == LevelGlobal {
		return forge.Errorf(forge.ErrInvalid, "global variables are not supported")
	}
	if err := CheckVariableName(name); err != nil {
		return err
	}
	return CheckData(NormalizeData(value), false)
}

// UpdateVariable sets the value of the variable name of t and, when
// newName is not empty, renames it. ErrVariableNotFound if there is none;
// the name errors of CreateVariable for newName; forge.ErrConflict if
// newName is taken.
func (s *Service) UpdateVariable(ctx context.Context, actor forge.Actor, t Target, name, newName, value string) (*Variable, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return nil, err
	}
	var v *Variable
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		if v, err = tx.VariableByName(ctx, r.scope, CanonicalName(name)); err != nil {
			if errors.Is(err, forge.ErrNotFound) {
				return ErrVariableNotFound
			}
			return err
		}
		if newName == "" {
			newName = name
		}
		if err := s.checkVariable(t, newName, value); err != nil {
			return err
		}
		v.Name, v.Data = CanonicalName(newName), NormalizeData(value)
		err = tx.UpdateVariable(ctx, v)
		if errors.Is(err, forge.ErrConflict) {
			return variableExists(newName)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Variable returns the variable name of t (ignoring case);
// ErrVariableNotFound if none.
func (s *Service) Variable(ctx context.Context, actor forge.Actor, t Target, name string) (*Variable, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return nil, err
	}
	var v *Variable
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = tx.VariableByName(ctx, r.scope, CanonicalName(name))
		if errors.Is(err, forge.ErrNotFound) {
			return ErrVariableNotFound
		}
		return err
	})
	return v, err
}

// DeleteVariable removes the variable name of t. The name is validated
// first, as Forgejo does (ErrInvalidName, ErrCIName); ErrVariableNotFound
// if there is none.
func (s *Service) DeleteVariable(ctx context.Context, actor forge.Actor, t Target, name string) error {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return err
	}
	if err := CheckVariableName(name); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := tx.VariableByName(ctx, r.scope, CanonicalName(name))
		if errors.Is(err, forge.ErrNotFound) {
			return ErrVariableNotFound
		} else if err != nil {
			return err
		}
		return tx.DeleteVariable(ctx, v.ID)
	})
}

// ListVariables returns a page of the variables of t, by name, and their
// number.
func (s *Service) ListVariables(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]*Variable, int64, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return nil, 0, err
	}
	var list []*Variable
	var total int64
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListVariables(ctx, r.scope, o.Normalize())
		return err
	})
	return list, total, err
}
