"""Shell completion scripts (``completion bash|zsh``): commands, options and their choices as the
command line defines them, releases from the bundled data, kinds from a release (asked of the
program itself, ``completion --kinds RELEASE``, when a kind is completed)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class CommandSpec:
    """What one subcommand takes: its options, the choices of some, and what its positional
    arguments are (``release``, ``kind``, ``file``, or a word list)."""

    options: tuple[str, ...]
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    positionals: tuple[str, ...] = ()


RELEASE_OPTIONS = ("--version", "--target", "--from")
KIND_OPTIONS = ("--kind",)
FILE_OPTIONS = ("--out", "--config", "--crds", "--cache-dir", "--lock", "--spec-mirror",
                "--source")
_WORD = re.compile(r"^[A-Za-z0-9_.:/+-]+$")


def _words(items: Sequence[str]) -> str:
    """Space-separated words for a shell script; only plain words are let through."""
    return " ".join(w for w in items if _WORD.match(w))


def _function(prog: str) -> str:
    return "_" + re.sub(r"[^A-Za-z0-9]", "_", prog)


def bash_script(prog: str, commands: Mapping[str, CommandSpec], releases: Sequence[str],
                top_options: Sequence[str] = ()) -> str:
    """A bash completion script for ``prog`` (``eval "$(k8s-api-docs completion bash)"``)."""
    fn = _function(prog)
    cases_opts, cases_choices, cases_pos = [], [], []
    for name, spec in commands.items():
        cases_opts.append(f"        {name}) words=\"{_words(spec.options)}\" ;;")
        for option, values in spec.choices.items():
            cases_choices.append(f"        {name}:{option}) words=\"{_words(values)}\" ;;")
        kinds = " ".join(spec.positionals)
        cases_pos.append(f"        {name}) positional=\"{_words(kinds.split())}\" ;;")
    return f"""# {prog} completion for bash: eval "$({prog} completion bash)" (or save it to a file
# sourced by ~/.bashrc, e.g. ~/.local/share/bash-completion/completions/{prog}).
{fn}_kinds() {{
    local release="$1"
    {prog} completion --kinds "$release" 2>/dev/null
}}

{fn}() {{
    local cur prev cmd i word release words positional
    COMPREPLY=()
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev=""
    if (( COMP_CWORD > 0 )); then prev="${{COMP_WORDS[COMP_CWORD-1]}}"; fi
    cmd=""
    release=""
    for (( i=1; i < COMP_CWORD; i++ )); do
        word="${{COMP_WORDS[i]}}"
        case "$word" in
            --version|--target) release="${{COMP_WORDS[i+1]}}" ;;
        esac
        if [[ -z "$cmd" && "$word" != -* ]]; then cmd="$word"; fi
    done
    local releases="{_words(releases)}"
    if [[ -z "$cmd" ]]; then
        COMPREPLY=( $(compgen -W "{_words(list(commands))} {_words(top_options)}" -- "$cur") )
        return 0
    fi
    case "$prev" in
        {'|'.join(RELEASE_OPTIONS)})
            COMPREPLY=( $(compgen -W "$releases" -- "$cur") ); return 0 ;;
        {'|'.join(KIND_OPTIONS)})
            COMPREPLY=( $(compgen -W "$({fn}_kinds "$release")" -- "$cur") ); return 0 ;;
        {'|'.join(FILE_OPTIONS)})
            COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;
    esac
    words=""
    case "$cmd:$prev" in
{chr(10).join(cases_choices)}
    esac
    if [[ -n "$words" ]]; then
        COMPREPLY=( $(compgen -W "$words" -- "$cur") ); return 0
    fi
    if [[ "$cur" == -* ]]; then
        case "$cmd" in
{chr(10).join(cases_opts)}
        esac
        COMPREPLY=( $(compgen -W "$words" -- "$cur") ); return 0
    fi
    positional=""
    case "$cmd" in
{chr(10).join(cases_pos)}
    esac
    case "$positional" in
        *release*) COMPREPLY=( $(compgen -W "$releases" -- "$cur") ) ;;
        *kind*) COMPREPLY=( $(compgen -W "$({fn}_kinds "$release")" -- "$cur") ) ;;
        *file*) COMPREPLY=( $(compgen -f -- "$cur") ) ;;
        "") ;;
        *) COMPREPLY=( $(compgen -W "$positional" -- "$cur") ) ;;
    esac
    return 0
}}
complete -o default -F {fn} {prog}
"""


def zsh_script(prog: str, commands: Mapping[str, CommandSpec], releases: Sequence[str],
               top_options: Sequence[str] = ()) -> str:
    """The bash script run by zsh's ``bashcompinit`` (``eval "$(k8s-api-docs completion zsh)"``
    in ~/.zshrc, after ``compinit``)."""
    return (f"# {prog} completion for zsh: eval \"$({prog} completion zsh)\" in ~/.zshrc\n"
            "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }\n"
            "autoload -U +X bashcompinit && bashcompinit\n"
            + bash_script(prog, commands, releases, top_options))


SHELLS = {"bash": bash_script, "zsh": zsh_script}
