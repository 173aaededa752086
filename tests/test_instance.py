import stat

from validator import instance


def test_environment_variable_chooses_the_folder(tmp_path, monkeypatch):
    chosen = tmp_path / "club"
    monkeypatch.setenv("REFEREE_INSTANCE", str(chosen))
    assert instance.folder() == chosen
    assert (chosen / "uploads").is_dir()


def test_default_is_a_per_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_INSTANCE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert instance.folder() == tmp_path / "data" / "referee"


def test_secret_key_is_generated_once_and_private(instance_dir):
    folder = instance.folder()
    first = instance.secret_key(folder)
    assert len(first) == 64 and instance.secret_key(folder) == first
    mode = (folder / instance.SECRET_KEY_NAME).stat().st_mode
    assert stat.S_IMODE(mode) == 0o600


def test_the_cli_keeps_its_database_in_the_instance_folder(instance_dir, run_cli, tmp_path):
    text = tmp_path / "pond.txt"
    text.write_text("3. PONDS\n3.1 Frogs sit on pads.\n", encoding="utf-8")
    assert run_cli("rules", "import", "tww", text, "--no-fixups", "--force")[0] == 0
    assert (instance_dir / instance.DATABASE_NAME).is_file()


def test_the_resolved_folder_is_absolute_and_not_created(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REFEREE_INSTANCE", "club")
    assert instance.is_chosen() and instance.resolved_folder() == tmp_path / "club"
    assert not (tmp_path / "club").exists()
    monkeypatch.setenv("REFEREE_INSTANCE", "")
    assert not instance.is_chosen() and instance.resolved_folder() == instance.default_folder()
