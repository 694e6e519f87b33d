package gpgkeys_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/memstore"
)

// keyEnv is the service on memstore with the real auth service, alice
// (alice@example.com) as its actor, and a key of hers made by go-crypto.
type keyEnv struct {
	ctx   context.Context
	svc   *gpgkeys.Service
	clock *forgetest.FakeClock
	alice forge.Actor
	key   *openpgp.Entity
}

func newKeyEnv(t *testing.T) *keyEnv {
	t.Helper()
	ctx, st, clock := context.Background(), memstore.New(), forgetest.NewClock()
	u := forgetest.User("alice")
	require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	users, err := auth.New(auth.Config{Store: st.Auth(), Clock: clock})
	require.NoError(t, err)
	svc, err := gpgkeys.New(gpgkeys.Config{Store: st.GPGKeys(), Users: users, Emails: site.PrimaryEmails{Store: st.Auth()}, Clock: clock})
	require.NoError(t, err)
	key, err := openpgp.NewEntity("Alice", "", "alice@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	require.NoError(t, err)
	return &keyEnv{ctx: ctx, svc: svc, clock: clock, alice: forge.Actor{User: u}, key: key}
}

func (e *keyEnv) armored(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	require.NoError(t, err)
	require.NoError(t, e.key.Serialize(w))
	require.NoError(t, w.Close())
	return buf.String()
}

func (e *keyEnv) sign(t *testing.T, data string) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, openpgp.ArmoredDetachSign(&buf, e.key, strings.NewReader(data), nil))
	return buf.String()
}

// TestVerificationTokenWindow: the token shown is good for the minute it
// names and the one after (Forgejo accepts the tokens of minutes 1 and
// 0), not later; a refusal names the token to sign now.
func TestVerificationTokenWindow(t *testing.T) {
	t.Parallel()
	e := newKeyEnv(t)
	k, err := e.svc.Add(e.ctx, e.alice, e.armored(t), "")
	require.NoError(t, err)
	require.False(t, k.Verified)

	shown, err := e.svc.Token(e.ctx, e.alice)
	require.NoError(t, err)
	sig := e.sign(t, shown)
	e.clock.Step(time.Minute)
	now, err := e.svc.Token(e.ctx, e.alice)
	require.NoError(t, err)
	require.NotEqual(t, shown, now)
	e.clock.Step(time.Minute)
	_, err = e.svc.Verify(e.ctx, e.alice, k.KeyID, sig)
	require.ErrorIs(t, err, forge.ErrInvalid, "two minutes on, the token shown is out of date")
	later, _ := e.svc.Token(e.ctx, e.alice)
	assert.True(t, strings.HasSuffix(err.Error(), "Provide a valid signature for the token: "+later), err.Error())

	shown, _ = e.svc.Token(e.ctx, e.alice)
	sig = e.sign(t, shown)
	e.clock.Step(time.Minute)
	v, err := e.svc.Verify(e.ctx, e.alice, k.KeyID, sig)
	require.NoError(t, err, "a minute on, the token shown is still good")
	assert.True(t, v.Verified)
}

// TestKeyOperationsCheckTheActor: every method refuses an anonymous
// actor, a token without the user scope and an account that may not act,
// before it reads its input.
func TestKeyOperationsCheckTheActor(t *testing.T) {
	t.Parallel()
	e := newKeyEnv(t)
	inactive := *e.alice.User
	inactive.IsActive = false
	readRepo := forge.Actor{User: e.alice.User, Scoped: true, Scope: forge.Scope{}}
	for name, actor := range map[string]forge.Actor{"anonymous": {}, "inactive": {User: &inactive}, "no user scope": readRepo} {
		calls := map[string]error{}
		_, calls["Token"] = e.svc.Token(e.ctx, actor)
		_, _, calls["ListOwn"] = e.svc.ListOwn(e.ctx, actor, forge.ListOptions{})
		_, _, calls["List"] = e.svc.List(e.ctx, actor, "alice", forge.ListOptions{})
		_, calls["Get"] = e.svc.Get(e.ctx, actor, 1)
		_, calls["Add"] = e.svc.Add(e.ctx, actor, "not even a key", "")
		_, calls["Verify"] = e.svc.Verify(e.ctx, actor, "", "")
		calls["Delete"] = e.svc.Delete(e.ctx, actor, 1)
		for op, err := range calls {
			if !errors.Is(err, forge.ErrUnauthenticated) && !errors.Is(err, forge.ErrForbidden) {
				t.Errorf("%s: %s = %v, want a refusal", name, op, err)
			}
		}
	}
}
