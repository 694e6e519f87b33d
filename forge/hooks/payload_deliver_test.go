package hooks_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// request is one request a typeReceiver got.
type request struct {
	method, uri string
	header      http.Header
	body        []byte
}

// typeReceiver is a real HTTP server on 127.0.0.1 answering 200 and
// recording every request, keyed by its first path segment (the hook
// type).
type typeReceiver struct {
	srv *httptest.Server
	got chan request
}

func newTypeReceiver(t *testing.T) *typeReceiver {
	rc := &typeReceiver{got: make(chan request, 32)}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- request{r.Method, r.RequestURI, r.Header.Clone(), b}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// collect waits for n requests (failing after a deadline) and returns
// them by their first path segment.
func (rc *typeReceiver) collect(t *testing.T, n int) map[string]request {
	t.Helper()
	out := map[string]request{}
	deadline := time.After(10 * time.Second)
	for range n {
		select {
		case r := <-rc.got:
			seg, _, _ := strings.Cut(strings.TrimPrefix(r.uri, "/"), "/")
			seg, _, _ = strings.Cut(seg, "?")
			out[seg] = r
		case <-deadline:
			t.Fatalf("%d of %d requests", len(out), n)
		}
	}
	select {
	case r := <-rc.got:
		t.Fatalf("unexpected request %s %s", r.method, r.uri)
	default:
	}
	return out
}

// TestDeliverEveryType: a push reaches a hook of every delivered type on a
// loopback receiver through the running worker (Run), each in its own format, method and
// URL (matrix: PUT to the room URL plus the body's SHA-1 as transaction
// id, with the access token and without X-Forgejo headers; telegram: the
// chat_id of its meta added to the sendMessage URL); every task is logged
// delivered (sourcehut_builds: TestSourcehutBuilds).
func TestDeliverEveryType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newTypeReceiver(t)
	// A generous time-out: nine deliveries at once on a loaded machine.
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.Timeout = 30 * time.Second })
	mk := func(typ hooks.Type, cfg hooks.Settings, authz string) *hooks.Hook {
		cfg["content_type"] = "json"
		if cfg["url"] == "" {
			cfg["url"] = rc.srv.URL + "/" + string(typ)
		}
		h, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: typ, Config: cfg,
			Events: []string{"push"}, AuthorizationHeader: authz, Active: true})
		require.NoError(t, err)
		return h
	}
	ids := map[string]forge.ID{}
	for _, h := range []*hooks.Hook{
		mk(hooks.TypeSlack, hooks.Settings{"channel": "#dev", "username": "forge", "color": "good"}, ""),
		mk(hooks.TypeDiscord, hooks.Settings{"username": "forge-bot", "icon_url": "https://icons.example/f.png"}, ""),
		mk(hooks.TypeDingtalk, hooks.Settings{}, ""),
		mk(hooks.TypeTelegram, hooks.Settings{"url": rc.srv.URL + "/telegram/bot1:x/sendMessage", "chat_id": "-42"}, ""),
		mk(hooks.TypeMSTeams, hooks.Settings{}, ""),
		mk(hooks.TypeFeishu, hooks.Settings{}, ""),
		mk(hooks.TypeMatrix, hooks.Settings{"url": rc.srv.URL + "/matrix/_matrix/client/v3/rooms/%21r/send/m.room.message",
			"room_id": "!r", "message_type": "2"}, "Bearer tok"),
		mk(hooks.TypeWechatwork, hooks.Settings{}, ""),
		mk(hooks.TypePackagist, hooks.Settings{"package_url": "https://packagist.org/packages/alice/proj"}, ""),
	} {
		ids[string(h.Type)] = h.ID
	}
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.hooks.Run(wctx) }()
	got := rc.collect(t, 9)

	decode := func(typ string, v any) {
		t.Helper()
		r, ok := got[typ]
		require.True(t, ok, "no %s request", typ)
		assert.Equal(t, "application/json", r.header.Get("Content-Type"), typ)
		require.NoError(t, json.Unmarshal(r.body, v), typ)
		if typ != "matrix" {
			assert.Equal(t, "POST", r.method, typ)
			assert.Equal(t, "push", r.header.Get("X-Forgejo-Event"), typ)
			assert.NotEmpty(t, r.header.Get("X-Forgejo-Delivery"), typ)
		}
	}
	var slack hooks.SlackMessage
	decode("slack", &slack)
	assert.Equal(t, "#dev", slack.Channel)
	assert.Equal(t, "forge", slack.Username)
	assert.Equal(t, "[alice/proj:<https://forge.example/alice/proj/src/branch/main|main>] <https://forge.example/alice/proj/compare/"+
		c1+"..."+c2+"|0 new commits> pushed by `alice`", slack.Text)
	require.Len(t, slack.Attachments, 1)
	assert.Equal(t, "good", slack.Attachments[0].Color)

	var discord hooks.DiscordMessage
	decode("discord", &discord)
	assert.Equal(t, "forge-bot", discord.Username)
	assert.Equal(t, "https://icons.example/f.png", discord.AvatarURL)
	require.Len(t, discord.Embeds, 1)
	assert.Equal(t, "[alice/proj:main] 0 new commits", discord.Embeds[0].Title)
	assert.Equal(t, "alice", discord.Embeds[0].Author.Name)
	assert.Equal(t, "https://forge.example/alice", discord.Embeds[0].Author.URL)

	var ding hooks.DingtalkMessage
	decode("dingtalk", &ding)
	assert.Equal(t, "actionCard", ding.MsgType)
	assert.Equal(t, "[alice/proj:main] 0 new commits", ding.ActionCard.Title)

	var tg hooks.TelegramMessage
	decode("telegram", &tg)
	assert.Equal(t, "/telegram/bot1:x/sendMessage?chat_id=-42&message_thread_id=", got["telegram"].uri)
	assert.Equal(t, "HTML", tg.ParseMode)
	assert.Equal(t, "[alice/proj:main] 0 new commits", tg.Message)

	var teams hooks.MSTeamsMessage
	decode("msteams", &teams)
	assert.Equal(t, "AdaptiveCard", teams.Type)
	require.Len(t, teams.Actions, 1)
	assert.Equal(t, "https://forge.example/alice/proj/compare/"+c1+"..."+c2, teams.Actions[0].URL)

	var feishu hooks.FeishuMessage
	decode("feishu", &feishu)
	assert.Equal(t, "[alice/proj:main]", feishu.Content.Text)

	var mx hooks.MatrixMessage
	decode("matrix", &mx)
	m := got["matrix"]
	sum := sha1.Sum(m.body)
	assert.Equal(t, "PUT", m.method)
	assert.Equal(t, "/matrix/_matrix/client/v3/rooms/%21r/send/m.room.message/"+hex.EncodeToString(sum[:]), m.uri)
	assert.Equal(t, "Bearer tok", m.header.Get("Authorization"))
	assert.Empty(t, m.header.Get("X-Forgejo-Event"), "matrix requests carry no Forgejo headers")
	assert.Equal(t, "m.text", mx.MsgType)
	assert.Equal(t, "[alice/proj] alice pushed 0 commits to main:\n", mx.Body)

	var wx hooks.WechatworkMessage
	decode("wechatwork", &wx)
	assert.Equal(t, "markdown", wx.Msgtype)

	var pk hooks.PackagistMessage
	decode("packagist", &pk)
	assert.Equal(t, "https://packagist.org/packages/alice/proj", pk.PackagistRepository.URL)

	for typ, id := range ids {
		if typ == "sourcehut_builds" {
			continue
		}
		var log []*hooks.Task
		for deadline := time.Now().Add(10 * time.Second); ; {
			log = e.tasks(t, id)
			require.Len(t, log, 1, typ)
			if log[0].Delivered || time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
		assert.True(t, log[0].Delivered && log[0].Succeeded, "%s: %+v", typ, log[0])
		assert.Equal(t, "push", log[0].EventType)
		var p map[string]any
		require.NoError(t, json.Unmarshal(log[0].Payload, &p), "the log keeps Forgejo's payload")
		assert.Equal(t, "refs/heads/main", p["ref"])
	}
	stop()
	require.NoError(t, <-done)
}

// TestUnconvertibleEventGivenUp: an event a type has no message for is
// given up at its first attempt, logged with the reason, and sends
// nothing.
func TestUnconvertibleEventGivenUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newTypeReceiver(t)
	e := newEnv(t, []string{"loopback"})
	h, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: hooks.TypeDiscord,
		Config: hooks.Settings{"url": rc.srv.URL + "/discord", "content_type": "json"}, Events: []string{"wiki"}, Active: true})
	require.NoError(t, err)
	require.NoError(t, e.sinks.ports.Enqueue(ctx, hooks.Event{Word: "wiki", Repo: e.repo, Payload: map[string]any{"action": "created"}}))
	n, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	rc.collect(t, 0)
	log := e.tasks(t, h.ID)
	require.Len(t, log, 1)
	assert.True(t, log[0].Delivered)
	assert.False(t, log[0].Succeeded)
	assert.Equal(t, 1, log[0].Attempts)
	assert.Contains(t, log[0].ResponseBody, "unsupported event: wiki")
	n, err = e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "not retried")
}

// repoEvents adapts the sinks to repos.RepoListener, as the composition
// root's wiring does.
type repoEvents struct{ h *sinks }

func (r *repoEvents) AfterCreate(ctx context.Context, actor forge.Actor, repo *forge.Repository) {
	_ = r.h.repoCreated(ctx, actor, repo)
}

func (r *repoEvents) AfterDelete(ctx context.Context, actor forge.Actor, repo *forge.Repository) {
	_ = r.h.repoDeleted(ctx, actor, repo)
}

func (r *repoEvents) AfterFork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) {
	_ = r.h.forked(ctx, actor, parent, fork)
}

// TestForkGetsDefaultHooks: a fork made through the repository service
// gets a copy of each default hook, as a repository created does, and the
// copy fires for pushes to the fork; the parent's hooks get the fork
// event.
func TestForkGetsDefaultHooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newTypeReceiver(t)
	store, clock := memstore.New(), forgetest.NewClock()
	p, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	ev, ph := &repoEvents{}, &pushes{}
	rs, rp, err := repos.NewWithPorts(repos.Config{Store: store.Repos(), Git: memgit.New(), Clock: clock,
		RepoListeners: []repos.RepoListener{ev}, PushListeners: []repos.PushListener{ph}})
	require.NoError(t, err)
	hs, sk, err := newSinks(hooks.Config{Store: store.Hooks(), Clock: clock, Sender: hookhttp.New(p), Repos: rs,
		RootURL: testRoot}, rp)
	require.NoError(t, err)
	ev.h, ph.h = sk, sk
	var actors []forge.Actor
	for _, u := range []*forge.User{forgetest.User("root", forgetest.Admin), forgetest.User("alice"), forgetest.User("bob")} {
		require.NoError(t, store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
		actors = append(actors, forgetest.ActorFor(u))
	}
	admin, alice, bob := actors[0], actors[1], actors[2]
	def, err := hs.Create(ctx, admin, hooks.AdminHooks(), hooks.CreateOptions{Type: hooks.TypeSlack,
		Config: hooks.Settings{"url": rc.srv.URL + "/default", "content_type": "json", "channel": "ci"},
		Events: []string{"push"}, Active: true})
	require.NoError(t, err)
	_, err = rs.Create(ctx, alice, "", repos.CreateOptions{Name: "proj"})
	require.NoError(t, err)
	parentHook, err := hs.Create(ctx, alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL + "/parent", "content_type": "json"}, Events: []string{"fork"}, Active: true})
	require.NoError(t, err)

	fork, err := rs.Fork(ctx, bob, "alice", "proj", "")
	require.NoError(t, err)
	list, _, err := hs.List(ctx, bob, hooks.RepoHooks("bob", "proj"), forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1, "the default hook, copied into the fork")
	assert.Equal(t, fork.Repo.ID, list[0].RepoID)
	assert.NotEqual(t, def.ID, list[0].ID)
	assert.Equal(t, hooks.TypeSlack, list[0].Type)
	assert.Equal(t, map[string]string{"channel": "ci"}, list[0].Meta)

	require.NoError(t, rs.AfterPush(ctx, bob, fork.Repo.ID, []repos.RefUpdate{{Ref: "refs/heads/main", OldID: c1, NewID: c2}}))
	n, err := hs.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the fork event to the parent's hook, the fork's push to its default hook copy")
	got := rc.collect(t, 2)
	assert.Equal(t, "fork", got["parent"].header.Get("X-Forgejo-Event"))
	var msg hooks.SlackMessage
	require.NoError(t, json.Unmarshal(got["default"].body, &msg))
	assert.Equal(t, "ci", msg.Channel)
	assert.Contains(t, msg.Text, "[bob/proj:")
	assert.Len(t, listTasks(t, hs, alice, parentHook.ID), 1)
}

func listTasks(t *testing.T, hs *hooks.Service, actor forge.Actor, id forge.ID) []*hooks.Task {
	t.Helper()
	list, _, err := hs.Tasks(context.Background(), actor, hooks.RepoHooks("alice", "proj"), id, forge.ListOptions{})
	require.NoError(t, err)
	return list
}

// TestForkIntoOrgQueuesCreated: a fork owned by an organisation also
// queues the repository event "created" (with the organisation), as
// Forgejo's notifier; a fork owned by a user does not.
func TestForkIntoOrgQueuesCreated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newTypeReceiver(t)
	e := newEnv(t, []string{"loopback"})
	root := forgetest.User("root", forgetest.Admin)
	org := forgetest.User("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	for _, u := range []*forge.User{root, org} {
		require.NoError(t, e.store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	}
	sys, err := e.hooks.Create(ctx, forgetest.ActorFor(root), hooks.AdminHooks(), hooks.CreateOptions{Type: hooks.TypeForgejo,
		Config: hooks.Settings{"url": rc.srv.URL + "/sys", "content_type": "json", "is_system_webhook": "true"},
		Events: []string{"repository"}, Active: true})
	require.NoError(t, err)
	sysTasks := func() []*hooks.Task {
		list, _, err := e.hooks.Tasks(ctx, forgetest.ActorFor(root), hooks.AdminHooks(), sys.ID, forge.ListOptions{})
		require.NoError(t, err)
		return list
	}
	userFork := &forge.Repository{ID: 900, OwnerID: e.alice.User.ID, OwnerName: "alice", Name: "copy", ForkID: e.repo.ID}
	require.NoError(t, e.sinks.forked(ctx, e.alice, e.repo, userFork))
	assert.Empty(t, sysTasks(), "a fork into a user's account is no repository event")

	orgFork := &forge.Repository{ID: 901, OwnerID: org.ID, OwnerName: "acme", Name: "proj", ForkID: e.repo.ID}
	require.NoError(t, e.sinks.forked(ctx, e.alice, e.repo, orgFork))
	list := sysTasks()
	require.Len(t, list, 1)
	var p hooks.RepositoryPayload
	require.NoError(t, json.Unmarshal(list[0].Payload, &p))
	assert.Equal(t, "created", p.Action)
	assert.Equal(t, "acme/proj", p.Repository.FullName)
	require.NotNil(t, p.Organization)
	assert.Equal(t, "acme", p.Organization.UserName)
}
