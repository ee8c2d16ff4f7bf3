// Package deploy_test checks the Kubernetes manifests of docs/deploy: each
// decodes strictly (no unknown or duplicate field) into the Kubernetes API
// types, the replay is an Indexed Job whose shards and parts agree with the
// merge Job, and the commands they run are accepted by the real fairhold
// binary, which replays a small dataset with them shard by shard and
// merges the parts into the unsharded replay's summary.
//
// It is a package of its own so that k8s.io/api is a dependency of this
// test only, never of the fairhold binary.
package deploy_test

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// load decodes a manifest strictly into T.
func load[T any](t *testing.T, name string) *T {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	var v T
	require.NoError(t, yaml.UnmarshalStrict(b, &v), "%s does not decode strictly into %T", name, v)
	return &v
}

// TestStrictDecoding: the decoder used rejects what a typo makes.
func TestStrictDecoding(t *testing.T) {
	var j batchv1.Job
	assert.Error(t, yaml.UnmarshalStrict([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completionsMode: Indexed\n"), &j), "unknown field")
	assert.Error(t, yaml.UnmarshalStrict([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 2\n  completions: 3\n"), &j), "duplicate field")
	assert.Error(t, yaml.UnmarshalStrict([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completions: two\n"), &j), "wrong type")
}

// flagValue returns the value of --name in args (as --name V or
// --name=V), and whether it is there.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// positional returns the arguments of a command line that are neither
// flags nor flag values, given which flags take no value.
func positional(args []string, bools ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			out = append(out, a)
			continue
		}
		if !strings.Contains(a, "=") && !slices.Contains(bools, strings.TrimPrefix(a, "--")) {
			i++
		}
	}
	return out
}

func container(t *testing.T, job *batchv1.Job) corev1.Container {
	t.Helper()
	require.Len(t, job.Spec.Template.Spec.Containers, 1)
	return job.Spec.Template.Spec.Containers[0]
}

func envVar(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// claimAt returns the persistent volume claim mounted at the directory
// holding file, "" for none.
func claimAt(job *batchv1.Job, c corev1.Container, file string) string {
	for _, m := range c.VolumeMounts {
		if path.Dir(file) == path.Clean(m.MountPath) {
			for _, v := range job.Spec.Template.Spec.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil {
					return v.PersistentVolumeClaim.ClaimName
				}
			}
		}
	}
	return ""
}

const indexVar = "$(JOB_COMPLETION_INDEX)"

// failJobCodes returns the exit codes of container that fail the Job
// without a retry.
func failJobCodes(job *batchv1.Job, container string) []int32 {
	var out []int32
	if p := job.Spec.PodFailurePolicy; p != nil {
		for _, r := range p.Rules {
			if r.Action == batchv1.PodFailurePolicyActionFailJob && r.OnExitCodes != nil &&
				r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn &&
				(r.OnExitCodes.ContainerName == nil || *r.OnExitCodes.ContainerName == container) {
				out = append(out, r.OnExitCodes.Values...)
			}
		}
	}
	return out
}

// replayJob checks the Indexed Job and returns its shards, its command
// line and its --part-out template.
func replayJob(t *testing.T) (n int, cmd []string, partOut string) {
	job := load[batchv1.Job](t, "replay-job.yaml")
	assert.Equal(t, "batch/v1", job.APIVersion)
	assert.Equal(t, "Job", job.Kind)
	require.NotNil(t, job.Spec.CompletionMode)
	assert.Equal(t, batchv1.IndexedCompletion, *job.Spec.CompletionMode, "an Indexed Job: each pod gets JOB_COMPLETION_INDEX")
	require.NotNil(t, job.Spec.Completions)
	n = int(*job.Spec.Completions)
	require.Greater(t, n, 1)
	require.NotNil(t, job.Spec.Parallelism)
	assert.True(t, *job.Spec.Parallelism >= 1 && int(*job.Spec.Parallelism) <= n, "parallelism %d within 1..%d", *job.Spec.Parallelism, n)
	if job.Spec.MaxFailedIndexes != nil {
		assert.Zero(t, *job.Spec.MaxFailedIndexes, "the merge needs every shard's part")
	}
	assert.Equal(t, corev1.RestartPolicyNever, job.Spec.Template.Spec.RestartPolicy)

	c := container(t, job)
	assert.Equal(t, []int32{2}, failJobCodes(job, c.Name), "a usage error is not retried")
	cmd = append(slices.Clone(c.Command), c.Args...)
	require.GreaterOrEqual(t, len(cmd), 2)
	assert.Equal(t, "fairhold", path.Base(cmd[0]))
	assert.Equal(t, "replay", cmd[1])
	shard, ok := flagValue(cmd, "shard")
	if ok {
		assert.Equal(t, fmt.Sprintf("auto/%d", n), shard, "--shard auto/N with N the Job's completions")
	} else {
		fromEnv, ok := flagValue(cmd, "shard-from-env")
		require.True(t, ok, "--shard auto/N or --shard-from-env N")
		assert.Equal(t, strconv.Itoa(n), fromEnv)
	}
	partOut, ok = flagValue(cmd, "part-out")
	require.True(t, ok, "--part-out")
	assert.Contains(t, partOut, indexVar, "one part per index")
	assert.NotEmpty(t, claimAt(job, c, partOut), "the parts go to a persistent volume")
	data := positional(cmd[2:])
	require.NotEmpty(t, data)
	for _, d := range data {
		assert.Regexp(t, `^(s3|gs|azblob)://[^/?]+/`, d, "the dataset is in object storage")
	}

	idx := envVar(c, "JOB_COMPLETION_INDEX")
	require.NotNil(t, idx, "JOB_COMPLETION_INDEX declared, so that %s is expanded", indexVar)
	require.NotNil(t, idx.ValueFrom)
	require.NotNil(t, idx.ValueFrom.FieldRef)
	assert.Equal(t, "metadata.annotations['batch.kubernetes.io/job-completion-index']", idx.ValueFrom.FieldRef.FieldPath)
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		e := envVar(c, v)
		require.NotNil(t, e, v)
		assert.Empty(t, e.Value, "%s: no credentials in the manifest", v)
		require.NotNil(t, e.ValueFrom, v)
		assert.NotNil(t, e.ValueFrom.SecretKeyRef, "%s from a Secret", v)
	}
	return n, cmd, partOut
}

func TestReplayJob(t *testing.T) { replayJob(t) }

// mergeJob checks the merge Job and returns its command line.
func mergeJob(t *testing.T, n int, partOut string) []string {
	job := load[batchv1.Job](t, "merge-job.yaml")
	assert.Equal(t, "batch/v1", job.APIVersion)
	assert.Equal(t, "Job", job.Kind)
	assert.Nil(t, job.Spec.CompletionMode, "one pod")
	assert.Equal(t, corev1.RestartPolicyNever, job.Spec.Template.Spec.RestartPolicy)
	c := container(t, job)
	assert.Equal(t, []int32{2, 3}, failJobCodes(job, c.Name), "findings (3) and bad parts (2) are not retried")
	cmd := append(slices.Clone(c.Command), c.Args...)
	require.GreaterOrEqual(t, len(cmd), 2)
	assert.Equal(t, "fairhold", path.Base(cmd[0]))
	assert.Equal(t, "merge", cmd[1])
	var want []string
	for i := range n {
		want = append(want, strings.ReplaceAll(partOut, indexVar, strconv.Itoa(i)))
	}
	assert.Equal(t, want, positional(cmd[2:], "json"), "the merge reads the N parts of the replay Job, each once")
	replay := load[batchv1.Job](t, "replay-job.yaml")
	assert.Equal(t, claimAt(replay, container(t, replay), partOut), claimAt(job, c, want[0]), "the merge reads the volume the shards write")
	return cmd
}

func TestMergeJob(t *testing.T) {
	n, _, partOut := replayJob(t)
	mergeJob(t, n, partOut)
}

func TestPartsVolume(t *testing.T) {
	pvc := load[corev1.PersistentVolumeClaim](t, "parts-pvc.yaml")
	assert.Equal(t, "v1", pvc.APIVersion)
	assert.Equal(t, "PersistentVolumeClaim", pvc.Kind)
	assert.Contains(t, pvc.Spec.AccessModes, corev1.ReadWriteMany, "shards on several nodes write at once")
	replay := load[batchv1.Job](t, "replay-job.yaml")
	_, _, partOut := replayJob(t)
	assert.Equal(t, pvc.Name, claimAt(replay, container(t, replay), partOut))
}

var seconds = regexp.MustCompile(`"seconds": [0-9.e+-]+`)

// TestCommandsRun runs the manifests' command lines with the real binary,
// as the pods would: the replay Job's for each index (the dataset URL
// replaced by a local dataset, the volume by a directory), then the merge
// Job's, whose summary must be the unsharded replay's.
func TestCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fairhold and replays a dataset")
	}
	n, replayCmd, partOut := replayJob(t)
	mergeCmd := mergeJob(t, n, partOut)
	dir := t.TempDir()
	bin := filepath.Join(dir, "fairhold")
	build := exec.Command("go", "build", "-o", bin, "github.com/fairhold/fairhold/cmd/fairhold")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	help, err := exec.Command(bin, "replay", "--help").CombinedOutput()
	require.NoError(t, err)
	if !strings.Contains(string(help), "--part-out") {
		t.Skip("this build of fairhold has no sharded replay (replay --part-out)")
	}
	data := filepath.Join(dir, "day")
	run := func(env []string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		if code != 0 && code != 3 {
			t.Fatalf("fairhold %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String(), code
	}
	run(nil, "simulate", "--game", "casino-holdem", "--rounds", strconv.Itoa(500*n), "--part-rounds", "500", "--row-group", "250",
		"--seed", "8", "--faults", "tie-not-pushed:0.02", "--out", data)

	parts := filepath.Join(dir, "parts")
	require.NoError(t, os.Mkdir(parts, 0o755))
	mount := path.Dir(partOut)
	local := func(args []string) []string {
		var out []string
		for _, a := range args {
			switch {
			case regexp.MustCompile(`^(s3|gs|azblob)://`).MatchString(a):
				a = data
			case strings.HasPrefix(a, mount+"/"):
				a = filepath.Join(parts, strings.TrimPrefix(a, mount+"/"))
			}
			out = append(out, a)
		}
		return out
	}
	for i := range n {
		idx := strconv.Itoa(i)
		args := local(replayCmd[1:])
		for k := range args {
			args[k] = strings.ReplaceAll(args[k], indexVar, idx) // as Kubernetes expands it
		}
		run([]string{"JOB_COMPLETION_INDEX=" + idx}, args...)
		_, err := os.Stat(filepath.Join(parts, strings.ReplaceAll(path.Base(partOut), indexVar, idx)))
		require.NoError(t, err, "shard %d wrote its part", i)
	}
	merged, mcode := run(nil, local(mergeCmd[1:])...)
	single, scode := run(nil, "replay", data, "--json")
	assert.Equal(t, scode, mcode)
	assert.Equal(t, seconds.ReplaceAllString(single, ""), seconds.ReplaceAllString(merged, ""), "the merge gives the unsharded replay's summary")
	assert.Contains(t, merged, "TIE_NOT_PUSHED")
}
